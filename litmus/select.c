/* See select.h. */
#include "select.h"

#include <stdio.h>
#include <string.h>

static bool variant_exists(const char *variant) {
  for (size_t i = 0; i < litmus_test_count; i++)
    if (strcmp(litmus_tests[i]->variant, variant) == 0)
      return true;
  return false;
}

static bool scenario_has(int scenario, const char *variant) {
  for (size_t i = 0; i < litmus_test_count; i++)
    if (litmus_tests[i]->scenario == scenario && strcmp(litmus_tests[i]->variant, variant) == 0)
      return true;
  return false;
}

/* The variant names of `scenario` (all rows if negative), first seen first. */
static void list_variants(FILE *out, int scenario) {
  bool first = true;
  for (size_t i = 0; i < litmus_test_count; i++) {
    const struct litmus_test *test = litmus_tests[i];
    if (scenario >= 0 && test->scenario != scenario)
      continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++)
      seen = (scenario < 0 || litmus_tests[j]->scenario == scenario) &&
             strcmp(litmus_tests[j]->variant, test->variant) == 0;
    if (seen)
      continue;
    fprintf(out, "%s%s", first ? "" : ", ", test->variant);
    first = false;
  }
}

static bool wanted_variant(const struct options *options, const char *variant) {
  if (options->all_variants)
    return true;
  for (size_t i = 0; i < options->variant_count; i++)
    if (strcmp(options->variants[i], variant) == 0)
      return true;
  return false;
}

long select_tests(const struct options *options, const struct litmus_test **selected) {
  for (size_t i = 0; i < options->variant_count && !options->all_variants; i++) {
    const char *variant = options->variants[i];
    if (!variant_exists(variant)) {
      fprintf(stderr, "barrierpair-litmus: unknown variant '%s'; the variants are: ", variant);
      list_variants(stderr, -1);
      fprintf(stderr, " (or 'all')\n");
      return -1;
    }
    for (int scenario = 0; scenario < 16 && !options->all_scenarios; scenario++) {
      if (options->scenario[scenario] && !scenario_has(scenario, variant)) {
        fprintf(stderr,
                "barrierpair-litmus: scenario %d has no variant '%s' (the generator writes rmbN "
                "and wmbN only where that barrier is not enough for CPU N); its variants are: ",
                scenario, variant);
        list_variants(stderr, scenario);
        fprintf(stderr, "\n");
        return -1;
      }
    }
  }
  long count = 0;
  for (size_t i = 0; i < litmus_test_count; i++) {
    const struct litmus_test *test = litmus_tests[i];
    if ((options->all_scenarios || options->scenario[test->scenario]) &&
        wanted_variant(options, test->variant))
      selected[count++] = test;
  }
  return count;
}

const struct litmus_test *find_test(const char *name) {
  for (size_t i = 0; i < litmus_test_count; i++)
    if (strcmp(litmus_tests[i]->name, name) == 0)
      return litmus_tests[i];
  return NULL;
}
