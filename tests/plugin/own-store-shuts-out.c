// A side that stores a flag, then reaches its second access only through a
// test of that flag its own store turns away, never has the second access
// after the first (liburcu's fork handler marks a call_rcu worker STOPPED,
// then frees it, waking it only if STOPPED is clear: a bit nothing clears).
// The test reads the side's own store or a later one, and no store of the
// flag lets it through: the side orders nothing and pairs with nothing. A
// store that clears the bit (-DRESTART) lets the test through, and the
// worker's exit is a pairing again (scenario 14).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DRESTART -Xclang -verify=restart
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define STOP 4
#define STOPPED 8

struct worker {
  int flags;
  int futex;
};

void futex_wake(int *word);
void futex_wait(int *word);

static void wake(struct worker *w) {
  cmm_smp_mb(); // restart-note {{'retire' orders the store to 'worker.flags' before the load of 'worker.futex' with 'cmm_smp_mb()' (in its call of 'wake')}}
  if (uatomic_read(&w->futex) == -1) {
    uatomic_set(&w->futex, 0);
    futex_wake(&w->futex);
  }
}

void *work(void *arg) {
  struct worker *w = arg;
  while (!(uatomic_read(&w->flags) & STOP)) {
    uatomic_dec(&w->futex);
    cmm_smp_mb();
    futex_wait(&w->futex);
  }
  cmm_smp_mb();
  uatomic_set(&w->futex, 0);
  uatomic_or(&w->flags, STOPPED); // restart-warning {{no barrier orders the store to 'worker.futex' before the store to 'worker.flags' in 'work'; with 'retire' this is scenario 14, which needs cmm_smp_mb() here (and 3 other pairings)}} \
                                     restart-note {{scenario 14 forbids y == 2 && r4 == 0}}
  return 0;
}

void retire(struct worker *w) {
  uatomic_set(&w->flags, STOPPED);
  if ((uatomic_read(&w->flags) & STOPPED) == 0) {
    uatomic_or(&w->flags, STOP);
    wake(w);
  }
}

#ifdef RESTART
void restart(struct worker *w) {
  uatomic_and(&w->flags, ~STOPPED);
}
#endif
