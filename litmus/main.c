/* barrierpair-litmus: runs the scenario table's litmus tests natively.
 * See options.c for the command line and docs/litmus.md for the manual. */
#include "affinity.h"
#include "lf_runner.h"
#include "litmus_test.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "select.h"
#include "variants.h"
#include "verdict.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct run_options run_options_from(const struct options *options,
                                           const struct cpu_list *cpus) {
  return (struct run_options){.iterations = options->iterations,
                              .seconds = options->seconds,
                              .stop_at_first_witness = false,
                              .pin = options->pin,
                              .batch = options->batch,
                              .stride = options->stride,
                              .stagger = options->stagger,
                              .cpus = cpus};
}

/* Fewer CPUs than threads is allowed (this is what a small CI machine has),
 * but the user must know the results are weaker. */
static void warn_about_cpus(const struct litmus_test **tests, long count,
                            const struct cpu_list *cpus) {
  int most = 0;
  char rows[128] = "";
  size_t used = 0;
  int last_row = -1;
  for (long i = 0; i < count; i++) {
    int threads = litmus_test_thread_count(tests[i]);
    most = threads > most ? threads : most;
    if (threads > cpus->count && tests[i]->scenario != last_row && used < sizeof rows) {
      last_row = tests[i]->scenario;
      used += (size_t)snprintf(rows + used, sizeof rows - used, "%s%d", used ? ", " : "", last_row);
    }
  }
  if (most > cpus->count)
    fprintf(stderr,
            "barrierpair-litmus: warning: %d CPU%s available but scenario%s %s need%s up to %d "
            "threads; threads will share CPUs, so outcomes that need them to run at the same time "
            "are seldom seen and those results are weaker\n",
            cpus->count, cpus->count == 1 ? "" : "s", strchr(rows, ',') ? "s" : "", rows,
            strchr(rows, ',') ? "" : "s", most);
}

static void list_tests(void) {
  const char *model = cpu_model_name();
  printf("%-14s %-8s %-7s %-15s %-15s %-9s %s\n", "test", "table", "threads", "CPU 0", "CPU 1",
         model ? model : "", "forbidden");
  for (size_t i = 0; i < litmus_test_count; i++) {
    const struct litmus_test *test = litmus_tests[i];
    int allows = cpu_model_allows(test);
    printf("%-14s %-8s %-7d %-15s %-15s %-9s %s\n", test->name,
           litmus_test_is_correct(test) ? "correct" : "broken", litmus_test_thread_count(test),
           variant_barrier_spelling(test->barrier[0]), variant_barrier_spelling(test->barrier[1]),
           allows < 0 ? ""
           : allows   ? "allows"
                      : "forbids",
           test->bug_on);
  }
}

/* Scenario 10 (Dekker) without barriers is the one reordering every
 * multiprocessor with store buffers shows, x86 included. If the harness
 * cannot see it, it cannot see anything, and its "never" means nothing. */
static int self_test(const struct options *options, const struct cpu_list *cpus) {
  const struct litmus_test *test = find_test("S10+none");
  struct test_record record = {.test = test};
  struct run_options run_options = run_options_from(options, cpus);
  run_options.stop_at_first_witness = true;
  if (!test) {
    fprintf(stderr, "barrierpair-litmus: self-test: no test S10+none was generated\n");
    return EXIT_CONTRADICTION;
  }
  if (!run_test(test, &run_options, &record.result))
    return EXIT_CONTRADICTION;
  judge_test(test, &record.result, &record.judgement);
  report_test(stdout, &record);
  if (options->json_path && !report_json(options->json_path, options, cpus, &record, 1,
                                         record.result.witnesses ? EXIT_OK : EXIT_CONTRADICTION))
    return EXIT_BAD_INPUT;
  if (record.result.witnesses) {
    printf("self-test: passed: scenario 10 without barriers witnessed after %" PRIu64
           " runs (%.2f ms)\n",
           record.result.first_witness_iteration, record.result.first_witness_seconds * 1e3);
    return EXIT_OK;
  }
  printf("self-test: FAILED: scenario 10 without barriers not witnessed in %" PRIu64
         " runs (%.1f s)%s\n",
         record.result.iterations, record.result.seconds,
         cpus->count < 2 ? "; only one CPU is available, so no reordering can show"
                         : "; the harness cannot see reorderings this CPU makes");
  return EXIT_CONTRADICTION;
}

int main(int argc, char **argv) {
  if (lf_runner_wanted(argc, argv)) /* herd7 C litmus files (lf_runner.c) */
    return lf_runner_main(argc, argv);
  struct options options;
  int status = options_parse(argc, argv, &options);
  if (status >= 0)
    return status;
  if (options.list) {
    list_tests();
    return EXIT_OK;
  }
  struct cpu_list cpus;
  affinity_available(&cpus);
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows as each test ends */
  if (options.self_test)
    return self_test(&options, &cpus);

  const struct litmus_test **tests = calloc(litmus_test_count, sizeof *tests);
  long count = tests ? select_tests(&options, tests) : -1;
  if (count < 0)
    return EXIT_BAD_INPUT;
  struct test_record *records = calloc((size_t)count + 1, sizeof *records);
  if (!records) {
    fprintf(stderr, "barrierpair-litmus: out of memory\n");
    return EXIT_BAD_INPUT;
  }
  warn_about_cpus(tests, count, &cpus);

  struct run_options run_options = run_options_from(&options, &cpus);
  status = EXIT_OK;
  for (long i = 0; i < count; i++) {
    records[i].test = tests[i];
    if (!run_test(tests[i], &run_options, &records[i].result))
      return EXIT_CONTRADICTION;
    judge_test(tests[i], &records[i].result, &records[i].judgement);
    report_test(stdout, &records[i]);
    if (records[i].judgement.verdict == VERDICT_CONTRADICTION)
      status = EXIT_CONTRADICTION;
  }
  report_summary(stdout, records, (size_t)count, &cpus);
  if (options.json_path &&
      !report_json(options.json_path, &options, &cpus, records, (size_t)count, status))
    return status == EXIT_OK ? EXIT_BAD_INPUT : status;
  free(records);
  free(tests);
  return status;
}
