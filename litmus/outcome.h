/* Outcomes as small integers, so a histogram is a plain array: each of
 * r1..r4, x and y is one base-4 digit (the tests only ever hold 0, 1 or 2;
 * 3 stands for anything else and would mean the harness is broken). */
#ifndef BARRIERPAIR_LITMUS_OUTCOME_H
#define BARRIERPAIR_LITMUS_OUTCOME_H

#include "litmus_test.h"

#include <stddef.h>

#define OUTCOME_STATES 4096 /* 4^6 */

unsigned outcome_encode(const struct litmus_outcome *outcome);
void outcome_decode(unsigned state, struct litmus_outcome *outcome);

/* Keeps only what the test reports (its registers, and x or y when its
 * forbidden outcome names them), so that equal reports are equal states. */
void outcome_mask(const struct litmus_test *test, struct litmus_outcome *outcome);

/* "r1=1; r2=0;" (and "x=2;"...), the way litmus7 prints a state. */
void outcome_format(const struct litmus_test *test, unsigned state, char *buffer, size_t size);

#endif
