/* barrierpair-litmus-gen: writes the litmus tests from the scenario table.
 *
 *   barrierpair-litmus-gen --list        the files it would write, one a line
 *   barrierpair-litmus-gen OUTPUT_DIR    write them
 *
 * For every row of include/barrierpair/scenarios.def and every barrier
 * variant of that row (variants.h), one C source with the row's threads;
 * plus the BUG_ON() conditions, a registry of all tests for the harness, and
 * a manifest for the analyzer cross-check. The build runs --list when it is
 * configured (to know the file names) and the generator itself at build
 * time, so both come from the same code.
 */
#include "gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS (BP_SCENARIO_COUNT * VARIANT_MAX)

static struct scenario_program programs[BP_SCENARIO_COUNT];
static struct variant variants[BP_SCENARIO_COUNT][VARIANT_MAX];
static struct generated_test tests[MAX_TESTS];

static const char *const fixed_files[] = {"litmus_conditions.h", "litmus_conditions.c",
                                          "litmus_registry.c", "litmus_manifest.json"};

static size_t collect_tests(void) {
  size_t count = 0;
  for (int number = 0; number < BP_SCENARIO_COUNT; number++) {
    char error[256];
    if (!scenario_program_read(number, &programs[number], error, sizeof error)) {
      fprintf(stderr, "barrierpair-litmus-gen: scenarios.def, scenario %d: %s\n", number, error);
      exit(1);
    }
    size_t variant_count = variants_of_scenario(number, variants[number]);
    for (size_t v = 0; v < variant_count; v++)
      tests[count++] = (struct generated_test){&programs[number], &variants[number][v]};
  }
  return count;
}

static void write_file(const char *directory, const char *name,
                       void (*emit)(FILE *out, const void *context), const void *context) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", directory, name);
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "barrierpair-litmus-gen: cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
  emit(out, context);
  if (ferror(out) | fclose(out)) {
    fprintf(stderr, "barrierpair-litmus-gen: error writing %s\n", path);
    exit(1);
  }
}

static size_t test_count;

static void emit_one_test(FILE *out, const void *test) {
  emit_test_source(out, test);
}
static void emit_header(FILE *out, const void *unused) {
  (void)unused;
  emit_conditions_header(out, programs, BP_SCENARIO_COUNT);
}
static void emit_conditions(FILE *out, const void *unused) {
  (void)unused;
  emit_conditions_source(out, programs, BP_SCENARIO_COUNT);
}
static void emit_all_registry(FILE *out, const void *unused) {
  (void)unused;
  emit_registry(out, tests, test_count);
}
static void emit_all_manifest(FILE *out, const void *unused) {
  (void)unused;
  emit_manifest(out, tests, test_count);
}

int main(int argc, char **argv) {
  if (argc != 2 || strcmp(argv[1], "--help") == 0) {
    fprintf(stderr, "usage: barrierpair-litmus-gen --list | OUTPUT_DIR\n");
    return argc == 2 ? 0 : 2;
  }
  test_count = collect_tests();
  char name[64];

  if (strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < sizeof fixed_files / sizeof fixed_files[0]; i++)
      printf("%s\n", fixed_files[i]);
    for (size_t i = 0; i < test_count; i++) {
      generated_test_file_name(&tests[i], name, sizeof name);
      printf("%s\n", name);
    }
    return 0;
  }

  const char *directory = argv[1];
  write_file(directory, "litmus_conditions.h", emit_header, NULL);
  write_file(directory, "litmus_conditions.c", emit_conditions, NULL);
  write_file(directory, "litmus_registry.c", emit_all_registry, NULL);
  write_file(directory, "litmus_manifest.json", emit_all_manifest, NULL);
  for (size_t i = 0; i < test_count; i++) {
    generated_test_file_name(&tests[i], name, sizeof name);
    write_file(directory, name, emit_one_test, &tests[i]);
  }
  return 0;
}
