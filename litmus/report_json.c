/* The JSON report: the options, the machine, and per test everything the
 * text report says plus the full histogram. Written by hand: the runner only
 * writes JSON, a few dozen lines do, and it keeps the runner free of
 * dependencies beyond pthreads and liburcu's headers. */
#include "report.h"

#include "variants.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/utsname.h>

static void json_string(FILE *out, const char *text) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static void json_sides(FILE *out, const struct litmus_test *test) {
  fprintf(out, "\"sides\": [");
  for (int cpu = 0; cpu < 2; cpu++) {
    fprintf(out, "%s{\"cpu\": %d, \"barrier\": ", cpu ? ", " : "", cpu);
    json_string(out, variant_barrier_spelling(test->barrier[cpu]));
    fprintf(out, ", \"weakest_allowed\": ");
    json_string(out, variant_barrier_spelling(test->weakest[cpu]));
    fprintf(out, ", \"broken_rule\": ");
    if (variant_expected_rule(test->expectation[cpu]))
      json_string(out, variant_expected_rule(test->expectation[cpu]));
    else
      fprintf(out, "null");
    fprintf(out, "}");
  }
  fprintf(out, "]");
}

static void json_histogram(FILE *out, const struct test_record *record) {
  bool first = true;
  fprintf(out, "\"histogram\": [");
  for (unsigned state = 0; state < OUTCOME_STATES; state++) {
    if (!record->result.counts[state])
      continue;
    struct litmus_outcome outcome;
    char text[96];
    outcome_decode(state, &outcome);
    outcome_format(record->test, state, text, sizeof text);
    fprintf(out, "%s{\"state\": ", first ? "" : ", ");
    json_string(out, text);
    fprintf(out, ", \"count\": %" PRIu64 ", \"forbidden\": %s}", record->result.counts[state],
            record->test->forbidden(&outcome) ? "true" : "false");
    first = false;
  }
  fprintf(out, "]");
}

static void json_test(FILE *out, const struct test_record *record) {
  const struct litmus_test *test = record->test;
  const struct run_result *result = &record->result;
  const struct judgement *judgement = &record->judgement;
  fprintf(out, "    {\"name\": ");
  json_string(out, test->name);
  fprintf(out, ", \"scenario\": %d, \"scenario_name\": ", test->scenario);
  json_string(out, test->scenario_name);
  fprintf(out, ", \"variant\": ");
  json_string(out, test->variant);
  fprintf(out, ",\n     \"variant_description\": ");
  json_string(out, test->variant_description);
  fprintf(out, ", \"table\": \"%s\",\n     ", litmus_test_is_correct(test) ? "correct" : "broken");
  json_sides(out, test);
  fprintf(out, ",\n     \"code\": [");
  for (int cpu = 0, n = 0; cpu < LITMUS_MAX_THREADS; cpu++) {
    if (!test->code[cpu])
      continue;
    fprintf(out, "%s{\"cpu\": %d, \"code\": ", n++ ? ", " : "", cpu);
    json_string(out, test->code[cpu]);
    fprintf(out, "}");
  }
  fprintf(out, "], \"forbidden\": ");
  json_string(out, test->bug_on);
  fprintf(out,
          ",\n     \"threads\": %d, \"cpus\": %d, \"shared_cpus\": %s, \"pinned\": %s, "
          "\"iterations\": %" PRIu64 ", \"seconds\": %.6f, \"runs_per_second\": %.1f,\n     ",
          result->threads, result->cpus, result->shared_cpus ? "true" : "false",
          result->pinned ? "true" : "false", result->iterations, result->seconds,
          report_rate(result));
  json_histogram(out, record);
  fprintf(out, ",\n     \"witnesses\": %" PRIu64 ", \"observation\": \"%s\", \"first_witness\": ",
          result->witnesses, report_observation(result));
  if (result->witnesses)
    fprintf(out, "{\"iteration\": %" PRIu64 ", \"seconds\": %.6f}", result->first_witness_iteration,
            result->first_witness_seconds);
  else
    fprintf(out, "null");
  fprintf(out, ",\n     \"verdict\": ");
  json_string(out, verdict_name(judgement->verdict));
  fprintf(out, ", \"reason\": ");
  json_string(out, judgement->reason);
  fprintf(out, ", \"cpu_model_allows\": %s}",
          judgement->cpu_model_allows < 0 ? "null"
          : judgement->cpu_model_allows   ? "true"
                                          : "false");
}

bool report_json(const char *path, const struct options *options, const struct cpu_list *cpus,
                 const struct test_record *records, size_t count, int exit_status) {
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "barrierpair-litmus: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  struct utsname machine;
  size_t totals[4] = {0};
  if (uname(&machine) != 0)
    strcpy(machine.machine, "unknown");
  fprintf(out, "{\n  \"tool\": \"barrierpair-litmus\",\n  \"architecture\": ");
  json_string(out, machine.machine);
  fprintf(out, ",\n  \"cpu_model\": ");
  if (count && records[0].judgement.cpu_model)
    json_string(out, records[0].judgement.cpu_model);
  else
    fprintf(out, "null");
  fprintf(out, ",\n  \"cpus_available\": %d,\n", cpus->count);
  fprintf(out,
          "  \"options\": {\"iterations\": %" PRIu64 ", \"seconds\": %.3f, \"affinity\": \"%s\", "
          "\"batch\": %zu, \"stride\": %zu, \"stagger\": %u, \"self_test\": %s},\n",
          options->iterations, options->seconds, options->pin ? "auto" : "none", options->batch,
          options->stride, options->stagger, options->self_test ? "true" : "false");
  fprintf(out, "  \"tests\": [\n");
  for (size_t i = 0; i < count; i++) {
    totals[records[i].judgement.verdict]++;
    json_test(out, &records[i]);
    fprintf(out, "%s\n", i + 1 < count ? "," : "");
  }
  fprintf(out,
          "  ],\n  \"summary\": {\"confirmed\": %zu, \"witnessed\": %zu, \"not_shown\": %zu, "
          "\"contradiction\": %zu},\n  \"exit_status\": %d\n}\n",
          totals[VERDICT_CONFIRMED], totals[VERDICT_WITNESSED], totals[VERDICT_NOT_SHOWN],
          totals[VERDICT_CONTRADICTION], exit_status);
  if (ferror(out) | fclose(out)) {
    fprintf(stderr, "barrierpair-litmus: error writing %s\n", path);
    return false;
  }
  return true;
}
