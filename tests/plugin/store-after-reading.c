// A side that stores X only under a test of its own load of X, where the
// test lets through only the value the partner alone writes, stores after
// the partner in X's order: the load read the partner's store. What
// decides is the load's pairing (message passing from the partner's
// barrier), not a pairing of two stores. liburcu-qsbr's reader clears
// `waiting` only once it has seen the writer set it:
//
//   writer: futex = -1; cmm_smp_wmb(); waiting = 1;
//   reader: if (waiting) { waiting = 0; cmm_smp_mb(); read futex; }
//
// The wmb is enough there; where another function also sets `waiting`, the
// reader's load may have read that one, and the writer's wmb is too weak.
// Two functions that run one helper's store are one writer: liburcu-qsbr's
// grace period, run by synchronize_rcu() and by the call_rcu thread that
// inlines it (-DTWO_CALLERS).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSECOND_WRITER -Xclang -verify=second
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DUNTESTED -Xclang -verify=untested
// RUN: %barrierpair %s -DTWO_CALLERS -Xclang -verify
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

static int waiting, futex;

#ifdef TWO_CALLERS
static void announce(void) {
#else
void wait_for_reader(void) {
#endif
  uatomic_set(&futex, -1);
  cmm_smp_wmb(); // second-warning {{'cmm_smp_wmb()' is too weak to order the store to 'futex' before the store to 'waiting' in 'wait_for_reader'}} \
                    second-note {{scenario 14 forbids}} \
                    untested-warning {{'cmm_smp_wmb()' is too weak to order the store to 'futex' before the store to 'waiting' in 'wait_for_reader'}} \
                    untested-note {{scenario 14 forbids}}
  _CMM_STORE_SHARED(waiting, 1);
}

#ifdef TWO_CALLERS
void wait_for_reader(void) { announce(); }
void reclaim_thread(void) { announce(); }
#endif

#ifdef SECOND_WRITER
void also_wait(void) {
  _CMM_STORE_SHARED(waiting, 1);
  cmm_smp_mb();
  uatomic_set(&futex, -1);
}
#endif

void wake_up(void) {
#ifndef UNTESTED
  if (caa_unlikely(_CMM_LOAD_SHARED(waiting))) {
#endif
    _CMM_STORE_SHARED(waiting, 0);
    cmm_smp_mb(); // second-note {{'wake_up' orders the store to 'waiting' before the load of 'futex' with 'cmm_smp_mb()'}} \
                     untested-note {{'wake_up' orders the store to 'waiting' before the load of 'futex' with 'cmm_smp_mb()'}}
    if (uatomic_read(&futex) == -1)
      uatomic_set(&futex, 0);
#ifndef UNTESTED
  }
#endif
}

// expected-no-diagnostics
