// A compare-and-swap that returns the value it found (the kernel's
// cmpxchg(), liburcu's uatomic_cmpxchg()) stores only where that value is
// the one it expected: after `if (cmpxchg(&p, old, new) != old)` the code
// goes on from a swap that stored nothing (liburcu's wait-free queue: the
// dequeue's `uatomic_cmpxchg(&tail->p, node, &head->node) == node`, whose
// failure path then moves the head on). There it is a load. A test of the
// value against anything else tells nothing of whether it stored.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify -DNEGATED
// RUN: %barrierpair %s -Xclang -verify=won -DAFTER_WINNING
// RUN: %barrierpair %s -Xclang -verify=won -DOTHER_TEST
// expected-no-diagnostics
#include "kernel.h"

#define cmpxchg_relaxed(ptr, old, new) __sync_val_compare_and_swap(ptr, old, new)

static int owner, message;

int claimer(void) {
#if defined(AFTER_WINNING)
  if (cmpxchg_relaxed(&owner, 0, 1) == 0)
#elif defined(OTHER_TEST)
  if (cmpxchg_relaxed(&owner, 0, 1) != 2)
#elif defined(NEGATED)
  if (!(cmpxchg_relaxed(&owner, 0, 1) == 0))
#else
  if (cmpxchg_relaxed(&owner, 0, 1) != 0)
#endif
    return READ_ONCE(message); // won-warning {{no barrier orders the store to 'owner' before the load of 'message' in 'claimer'; with 'partner' this is scenario 10 (Dekker)}} \
                                  won-note {{scenario 10 (Dekker) forbids}}
  return 0;
}

int partner(void) {
  WRITE_ONCE(message, 1);
  smp_mb(); // won-note {{'partner' orders the store to 'message' before the load of 'owner' with 'smp_mb()'}}
  return READ_ONCE(owner);
}
