/* The barrier variants the generator writes for each scenario row.
 *
 * Names are stable (tests, docs and scripts use them):
 *   none      no barrier on either side
 *   weakest   the weakest barriers the row allows, on both sides
 *   full      cmm_smp_mb() on both sides
 *   missing0  CPU 0 has no barrier, CPU 1 the weakest it may use
 *   missing1  CPU 1 has no barrier, CPU 0 the weakest it may use
 *   rmb0      CPU 0 has cmm_smp_rmb(), which its row calls too weak or the
 *             wrong kind; CPU 1 the weakest it may use (likewise wmb0,
 *             rmb1, wmb1). Written only for the sides where that barrier
 *             is not enough.
 */
#ifndef BARRIERPAIR_LITMUS_VARIANTS_H
#define BARRIERPAIR_LITMUS_VARIANTS_H

#include "litmus_test.h"

#include <stdbool.h>
#include <stddef.h>

#define VARIANT_MAX 9

struct variant {
  char name[16];
  const char *description;
  enum litmus_barrier barrier[2];
  enum litmus_expectation expectation[2];
};

/* The weakest barrier row `number` allows on side `cpu` (0 or 1). */
enum litmus_barrier variant_weakest_barrier(int number, int cpu);

/* The variants of row `number`, in their stable order; returns how many. */
size_t variants_of_scenario(int number, struct variant variants[VARIANT_MAX]);

/* "cmm_smp_rmb()", ..., or "(none)". */
const char *variant_barrier_spelling(enum litmus_barrier barrier);

/* The analyzer rule a side with this expectation breaks, or NULL. */
const char *variant_expected_rule(enum litmus_expectation expectation);

#endif
