/* A row of the scenario table read as a program: the accesses each CPU makes,
 * parsed from the article's own text in scenarios.def ("r1 = CAO(x);
 * cmm_smp_{r,}mb(); r2 = CAO(y);") and checked against the row's number,
 * barrier letters and BUG_ON() expression. The litmus generator builds its
 * programs from this, so a typo in the table fails the build instead of
 * producing a test of the wrong scenario. */
#ifndef BARRIERPAIR_LITMUS_SCENARIO_PROGRAM_H
#define BARRIERPAIR_LITMUS_SCENARIO_PROGRAM_H

#include "barrierpair/barrierpair.h"
#include "litmus_test.h"

#include <stdbool.h>
#include <stddef.h>

struct scenario_access {
  enum litmus_access kind;
  char variable; /* 'x' or 'y' */
  int reg;       /* loads: k of rk */
  int value;     /* stores: the value stored */
};

struct scenario_cpu {
  int access_count; /* 0 when the row has no such CPU */
  struct scenario_access accesses[2];
  char barrier; /* between the two accesses, as written: 'r', 'w', 'm' or 0 */
};

struct scenario_program {
  const bp_scenario *row;
  struct scenario_cpu cpu[LITMUS_MAX_THREADS];
  unsigned registers;           /* bit k set: some CPU loads r(k+1) */
  unsigned registers_in_bug_on; /* bit k set: BUG_ON() reads r(k+1) */
  bool bug_on_x, bug_on_y;      /* BUG_ON() reads final x / y */
};

/* Parses and checks row `number`. On failure returns false and describes the
 * problem in `error`. */
bool scenario_program_read(int number, struct scenario_program *program, char *error,
                           size_t error_size);

#endif
