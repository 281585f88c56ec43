/* The text report, in the shape litmus7 users know: the test, its
 * histogram with the forbidden outcome marked, the Observation line, then
 * what the table makes of it. */
#include "report.h"

#include "variants.h"

#include <inttypes.h>

const char *report_observation(const struct run_result *result) {
  if (result->witnesses == 0)
    return "Never";
  return result->witnesses == result->iterations ? "Always" : "Sometimes";
}

double report_rate(const struct run_result *result) {
  return result->seconds > 0 ? (double)result->iterations / result->seconds : 0;
}

static void report_header(FILE *out, const struct litmus_test *test) {
  fprintf(out, "Test %s (scenario %d%s%s; variant %s: %s)\n", test->name, test->scenario,
          test->scenario_name[0] ? ", " : "", test->scenario_name, test->variant,
          test->variant_description);
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++)
    if (test->code[cpu])
      fprintf(out, "  CPU %d: %s\n", cpu, test->code[cpu]);
  fprintf(out, "  Forbidden: %s  (the table allows CPU 0 %s, CPU 1 %s; it calls this variant %s)\n",
          test->bug_on, variant_barrier_spelling(test->weakest[0]),
          variant_barrier_spelling(test->weakest[1]),
          litmus_test_is_correct(test) ? "correct" : "broken");
}

static void report_histogram(FILE *out, const struct test_record *record) {
  const struct run_result *result = &record->result;
  int states = 0;
  for (unsigned state = 0; state < OUTCOME_STATES; state++)
    states += result->counts[state] > 0;
  fprintf(out, "Histogram (%d states)\n", states);
  for (unsigned state = 0; state < OUTCOME_STATES; state++) {
    if (!result->counts[state])
      continue;
    struct litmus_outcome outcome;
    char text[96];
    outcome_decode(state, &outcome);
    bool forbidden = record->test->forbidden(&outcome);
    outcome_format(record->test, state, text, sizeof text);
    fprintf(out, "%-10" PRIu64 "%s>%s%s\n", result->counts[state], forbidden ? "*" : ":", text,
            forbidden ? "  <- forbidden" : "");
  }
}

void report_test(FILE *out, const struct test_record *record) {
  const struct litmus_test *test = record->test;
  const struct run_result *result = &record->result;
  report_header(out, test);
  report_histogram(out, record);
  fprintf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", test->name,
          report_observation(result), result->witnesses, result->iterations - result->witnesses);
  fprintf(out, "Time %s %.3f s, %" PRIu64 " runs, %.3g runs/s, %d threads on %d CPUs%s%s\n",
          test->name, result->seconds, result->iterations, report_rate(result), result->threads,
          result->cpus, result->pinned ? ", pinned" : ", not pinned",
          result->shared_cpus ? " (threads share CPUs: results are weaker)" : "");
  if (result->witnesses)
    fprintf(out, "First witness %s after %" PRIu64 " runs (%.2f ms)\n", test->name,
            result->first_witness_iteration, result->first_witness_seconds * 1e3);
  fprintf(out, "Verdict %s: %s: %s\n\n", test->name, verdict_name(record->judgement.verdict),
          record->judgement.reason);
}

void report_summary(FILE *out, const struct test_record *records, size_t count,
                    const struct cpu_list *cpus) {
  size_t totals[4] = {0};
  fprintf(out, "Summary: %zu tests on %d CPUs\n", count, cpus->count);
  fprintf(out, "%-14s %-8s %7s %12s %10s %10s  %s\n", "test", "table", "threads", "runs",
          "forbidden", "runs/s", "verdict");
  for (size_t i = 0; i < count; i++) {
    const struct test_record *record = &records[i];
    totals[record->judgement.verdict]++;
    fprintf(out, "%-14s %-8s %7d %12" PRIu64 " %10" PRIu64 " %10.3g  %s%s\n", record->test->name,
            litmus_test_is_correct(record->test) ? "correct" : "broken", record->result.threads,
            record->result.iterations, record->result.witnesses, report_rate(&record->result),
            verdict_name(record->judgement.verdict),
            record->judgement.verdict == VERDICT_NOT_SHOWN
                ? (record->judgement.cpu_model_allows == 0   ? " (CPU keeps this order)"
                   : record->judgement.cpu_model_allows == 1 ? " (CPU could show it)"
                                                             : "")
                : "");
  }
  fprintf(out,
          "Totals: %zu confirmed, %zu witnessed, %zu not shown by this CPU, %zu "
          "CONTRADICTION\n",
          totals[VERDICT_CONFIRMED], totals[VERDICT_WITNESSED], totals[VERDICT_NOT_SHOWN],
          totals[VERDICT_CONTRADICTION]);
}
