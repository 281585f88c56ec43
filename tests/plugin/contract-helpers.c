// A static helper with a library's contract (liburcu's wait_gp(), called by
// synchronize_rcu()) is lowered on its own to check the contract, but its
// code runs only where its callers call it, and their lowering holds it
// there: on its own it pairs with nothing, its caller included. A helper
// something else may also run (its address taken: a thread, a signal
// handler) pairs as any function does.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contract-helpers.def -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contract-helpers.def -DBROKEN -Xclang -verify=broken
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contract-helpers.def -DSTARTED -Xclang -verify=started
// expected-no-diagnostics
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int futex, waiting;

static void *wait_for_wakeup(void *unused) {
  (void)unused;
#ifndef BROKEN
  cmm_smp_mb();
#endif
  CMM_STORE_SHARED(waiting, 1); // broken-warning {{no barrier in 'wait_for_wakeup' orders the store to 'waiting' after its caller's earlier accesses, but its contract says its caller's earlier loads and stores come before its own (BP_CONTRACT(wait_for_wakeup, ENTRY, MB)); this needs cmm_smp_mb() before it}}
  cmm_smp_mb(); // started-note {{'wait_for_wakeup' orders the store to 'waiting' before the load of 'futex' with 'cmm_smp_mb()'}}
  while (CMM_LOAD_SHARED(futex) == -1)
    ;
  return NULL;
}

void synchronize(void) {
  CMM_STORE_SHARED(futex, -1);
  // Read in the same thread as the helper's store: no race with it.
  if (CMM_LOAD_SHARED(waiting)) // started-warning {{no barrier orders the store to 'futex' before the load of 'waiting' in 'synchronize'; with 'wait_for_wakeup' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                   started-note {{scenario 10 (Dekker) forbids}}
    return;
  cmm_smp_mb();
  (void)wait_for_wakeup(NULL);
}

#ifdef STARTED
void start(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, wait_for_wakeup, NULL);
}
#endif
