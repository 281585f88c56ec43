// A function a library's contract names is used through the contract: where
// its code is lowered into a caller, its accesses pair with the caller's
// only in the directions the contract states. wake_worker() orders its
// caller's stores before its read of the futex word (ENTRY, MB), a read that
// only decides whether to wake the worker; nothing claims that the read
// comes before what its caller reads next (liburcu's call_rcu_wake_up(),
// read before call_rcu_data_free() waits for STOPPED). With the contract,
// that side pairs with nothing; without it, the worker's handshake makes
// the futex word's read before the flags' read scenario 1, a row where a
// third CPU stores, reported with beta. A helper that a contract function calls is
// the contract function's own code: go_offline()'s store before its
// helper's read of the futex word still pairs (Dekker, with the barrier
// between them deleted), with the contract and without it.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contract-directions.def -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=open
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct worker {
  int futex;
  unsigned long flags;
  unsigned long ctr;
};

int futex_wake(int *word);
int futex_wait(int *word);

static void wake_worker(struct worker *w) {
  cmm_smp_mb();
  if (uatomic_read(&w->futex) == -1) { // open-note {{'stop_worker' loads 'worker.futex' here, before the load of 'worker.flags' with no barrier between}}
    uatomic_set(&w->futex, 0);
    futex_wake(&w->futex);
  }
}

void stop_worker(struct worker *w) {
  uatomic_or(&w->flags, 1);
  wake_worker(w);
  while (!(uatomic_read(&w->flags) & 2)) // open-warning {{no barrier orders the load of 'worker.futex' before the load of 'worker.flags' in 'stop_worker'; with 'worker_wake_self' this is scenario 1, which needs cmm_smp_rmb() here}} open-note {{scenario 1 forbids}}
    ;
}

void worker_sleep(struct worker *w) {
  uatomic_set(&w->futex, -1);
  cmm_smp_mb();
  if (!(uatomic_read(&w->flags) & 1))
    futex_wait(&w->futex);
}

void worker_wake_self(struct worker *w) {
  (void)uatomic_read(&w->flags);
  cmm_smp_mb(); // open-note {{'worker_wake_self' orders the load of 'worker.flags' before the store to 'worker.futex' with 'cmm_smp_mb()'}}
  uatomic_set(&w->futex, 0);
}

void worker_exit(struct worker *w) {
  uatomic_or(&w->flags, 2);
}

static void wake_waiter(struct worker *w) {
  if (uatomic_read(&w->futex) == -1) // expected-warning {{no barrier orders the store to 'worker.ctr' before the load of 'worker.futex' in 'quiesce' (in its call of 'wake_waiter'); with 'wait_for_worker' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                     // expected-note {{scenario 10 (Dekker) forbids}} \
                                     // open-warning {{no barrier orders the store to 'worker.ctr' before the load of 'worker.futex' in 'quiesce' (in its call of 'wake_waiter')}} \
                                     // open-note {{scenario 10 (Dekker) forbids}}
    futex_wake(&w->futex);
}

static void go_offline(struct worker *w) {
  cmm_smp_mb();
  CMM_STORE_SHARED(w->ctr, 0); // expected-note {{'quiesce' stores 'worker.ctr' here}} open-note {{'quiesce' stores 'worker.ctr' here}}
  wake_waiter(w);
}

void quiesce(struct worker *w) {
  go_offline(w);
}

unsigned long wait_for_worker(struct worker *w) {
  uatomic_set(&w->futex, -1);
  cmm_smp_mb(); // expected-note {{'wait_for_worker' orders the store to 'worker.futex' before the load of 'worker.ctr' with 'cmm_smp_mb()'}} open-note {{'wait_for_worker' orders the store to 'worker.futex' before the load of 'worker.ctr' with 'cmm_smp_mb()'}}
  return CMM_LOAD_SHARED(w->ctr);
}
