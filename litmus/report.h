/* What the runner prints: litmus7-style text per test and a summary
 * (report_text.c), and everything as JSON (report_json.c). */
#ifndef BARRIERPAIR_LITMUS_REPORT_H
#define BARRIERPAIR_LITMUS_REPORT_H

#include "affinity.h"
#include "litmus_test.h"
#include "options.h"
#include "run.h"
#include "verdict.h"

#include <stdio.h>

struct test_record {
  const struct litmus_test *test;
  struct run_result result;
  struct judgement judgement;
};

void report_test(FILE *out, const struct test_record *record);
void report_summary(FILE *out, const struct test_record *records, size_t count,
                    const struct cpu_list *cpus);
/* "Never", "Sometimes" or "Always", as litmus7 says it. */
const char *report_observation(const struct run_result *result);
double report_rate(const struct run_result *result);

/* Returns false (with a message on stderr) if the file cannot be written. */
bool report_json(const char *path, const struct options *options, const struct cpu_list *cpus,
                 const struct test_record *records, size_t count, int exit_status);

#endif
