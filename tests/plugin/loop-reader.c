// A reader that spins on the flag in a loop: the loop's back edge must not
// hide the barrier after it, and a barrier inside the loop body only orders
// the loads the loop body holds.
//
// RUN: %barrierpair %s -Xclang -verify
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;

void writer(int value) {
  CMM_STORE_SHARED(message, value);
  cmm_smp_wmb(); // expected-note 2 {{'writer' orders the store to 'message' before the store to 'ready' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(ready, 1);
}

int spin_then_barrier(void) {
  while (!CMM_LOAD_SHARED(ready))
    caa_cpu_relax();
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(message);
}

int barrier_on_the_wrong_branch(int fast) {
  int seen = CMM_LOAD_SHARED(ready);
  if (fast)
    cmm_smp_rmb();
  return seen ? CMM_LOAD_SHARED(message) : -1; // expected-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'barrier_on_the_wrong_branch'}} \
                                                  expected-note {{scenario 3 (message passing)}}
}

int poll_without_barrier(void) {
  for (;;) {
    if (CMM_LOAD_SHARED(ready))
      return CMM_LOAD_SHARED(message); // expected-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'poll_without_barrier'}} \
                                          expected-note {{scenario 3 (message passing)}}
    caa_cpu_relax();
  }
}
