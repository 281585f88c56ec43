// An access in a loop's body and a barrier written after the loop: the
// path from the access goes round the loop and leaves it where the loop's
// head does, so the barrier orders the last iteration's access before what
// follows (liburcu-qsbr's wait_for_readers() marks every reader `waiting`
// in a walk of the registry, then cmm_smp_mb(), then reads each reader's
// counter). A later iteration's accesses are no order the code relies on
// (a retry loop's re-read, a worker's next round), and neither is what only
// the loop itself, with no barrier after it, puts in sequence.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DFORGOTTEN -Xclang -verify=forgotten
// RUN: %barrierpair %s -DFORGOTTEN_AFTER_LOOP -Xclang -verify=after
#include <urcu/arch.h>
#include <urcu/system.h>

struct reader {
  unsigned long ctr;
  int waiting;
  struct reader *next;
};

static struct reader *registry;
static unsigned long gp_ctr;
static __thread struct reader me;

// The reader's quiescent state: its counter, then whether a writer waits.
// It reads its own counter plainly (only it stores its own), as the writer
// stores its own when it goes offline: stores to each thread's own record,
// which make the two no writers of one object that the code serialises.
void quiescent_state(void) {
  unsigned long gp = CMM_LOAD_SHARED(gp_ctr);
  if (gp == me.ctr)
    return;
  CMM_STORE_SHARED(me.ctr, gp);
#ifndef FORGOTTEN
  cmm_smp_mb(); // after-note {{'quiescent_state' orders the store to 'reader.ctr' before the load of 'reader.waiting' with 'cmm_smp_mb()'}}
#endif
  if (CMM_LOAD_SHARED(me.waiting)) // forgotten-warning {{no barrier orders the store to 'reader.ctr' before the load of 'reader.waiting' in 'quiescent_state'; with 'wait_for_readers' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                      forgotten-note {{scenario 10 (Dekker)}}
    CMM_STORE_SHARED(me.waiting, 0); // forgotten-warning {{no barrier orders the store to 'reader.ctr' before the store to 'reader.waiting' in 'quiescent_state'; with 'wait_for_readers'}} \
                                        forgotten-note {{scenario 14}}
}

// The writer: every reader marked waiting, then the barrier, then the
// counters read.
int wait_for_readers(void) {
  struct reader *r;
  int busy = 0;
  CMM_STORE_SHARED(me.ctr, 0); // offline while it waits
  for (r = CMM_LOAD_SHARED(registry); r; r = r->next)
    CMM_STORE_SHARED(r->waiting, 1);
#ifndef FORGOTTEN_AFTER_LOOP
  cmm_smp_mb(); // forgotten-note 2 {{'wait_for_readers' orders the store to 'reader.waiting' before the load of 'reader.ctr' with 'cmm_smp_mb()'}}
#endif
  for (r = CMM_LOAD_SHARED(registry); r; r = r->next)
    busy += CMM_LOAD_SHARED(r->ctr) != CMM_LOAD_SHARED(gp_ctr); // after-warning {{no barrier orders the store to 'reader.waiting' before the load of 'reader.ctr' in 'wait_for_readers'; with 'quiescent_state' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                                                   after-note {{scenario 10 (Dekker)}}
  return busy;
}

// expected-no-diagnostics
