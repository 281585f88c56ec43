/* A test's verdict against the table:
 *   confirmed              the table calls the barriers enough, and the
 *                          forbidden outcome never appeared;
 *   witnessed              the table calls the variant broken, and this CPU
 *                          produced the forbidden outcome;
 *   not shown by this CPU  the table calls the variant broken, but the
 *                          forbidden outcome did not appear (the reason says
 *                          whether this CPU cannot show it at all);
 *   CONTRADICTION          the forbidden outcome appeared under barriers the
 *                          table calls enough: the table or the barriers are
 *                          wrong (the runner exits with status 1). */
#ifndef BARRIERPAIR_LITMUS_VERDICT_H
#define BARRIERPAIR_LITMUS_VERDICT_H

#include "litmus_test.h"
#include "run.h"

#include <stdbool.h>
#include <stddef.h>

enum verdict { VERDICT_CONFIRMED, VERDICT_WITNESSED, VERDICT_NOT_SHOWN, VERDICT_CONTRADICTION };

struct judgement {
  enum verdict verdict;
  /* Whether this CPU's memory model allows the forbidden outcome at all:
   * 1 yes, 0 no, -1 unknown (no model for this architecture). */
  int cpu_model_allows;
  const char *cpu_model; /* "x86-TSO", or NULL */
  bool surprising;       /* seen although the CPU's model forbids it */
  char reason[512];
};

const char *verdict_name(enum verdict verdict);

/* The memory model of the CPU the runner was built for ("x86-TSO"), or NULL
 * when there is none yet; and whether it allows the test's forbidden
 * outcome (1 yes, 0 no, -1 no model). */
const char *cpu_model_name(void);
int cpu_model_allows(const struct litmus_test *test);
void judge_test(const struct litmus_test *test, const struct run_result *result,
                struct judgement *judgement);

/* "CPU 0's load->load (no barrier)": what a broken side leaves unenforced. */
void describe_side(const struct litmus_test *test, int cpu, char *buffer, size_t size);

#endif
