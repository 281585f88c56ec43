/* x86-TSO as a model: can the forbidden outcome of a test happen on an x86
 * CPU at all? The runner uses the answer to explain a forbidden outcome it
 * did not see: either this CPU keeps the order the variant leaves unenforced
 * (x86 only reorders a store with a later load), or it could show it but
 * did not within the run. */
#ifndef BARRIERPAIR_LITMUS_TSO_MODEL_H
#define BARRIERPAIR_LITMUS_TSO_MODEL_H

#include "litmus_test.h"

#include <stdbool.h>

/* Searches every execution of the test's steps on the store-buffer model of
 * x86-TSO (Owens, Sarkar and Sewell, "A better x86 memory model: x86-TSO",
 * 2009): each CPU's stores wait in a FIFO buffer, its loads read its own
 * newest buffered store or memory, cmm_smp_mb() (mfence or a locked
 * instruction) waits for the buffer to drain, and cmm_smp_rmb() and
 * cmm_smp_wmb() are compiler barriers only. */
bool tso_allows_forbidden(const struct litmus_test *test);

#endif
