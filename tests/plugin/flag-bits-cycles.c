// Flag words on a cycle of three functions (with --beta, missing-barrier's
// cycles with one link unbarriered): the queuer stores the node, then reads
// the RT bit of the flags with no barrier between; the destroyer sets STOP
// and then, after a full barrier, reads the futex; the worker stores the
// futex and then, after a full barrier, reads the node. The queuer's load
// of RT never tells whether the destroyer's store of STOP happened, so
// that link is no link and there is no cycle (liburcu's workqueue). Where
// the destroyer changes the bit the queuer tests, the cycle is reported.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSAME_BITS -Xclang -verify=same
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define RT (1UL << 0)
#define STOP (1UL << 1)
#ifdef SAME_BITS
#define DESTROYER_SETS RT
#else
#define DESTROYER_SETS STOP
#endif

struct workqueue {
  unsigned long flags;
  int futex;
  void *next;
};

struct workqueue queue;
int woken;

void queue_work(void *node) {
  CMM_STORE_SHARED(queue.next, node);
  if (!(CMM_LOAD_SHARED(queue.flags) & RT)) // same-warning {{no barrier orders the store to 'queue.next' before the load of 'queue.flags' in 'queue_work', a link on a cycle through 'destroy' and 'worker' ('queue.next' -> 'queue.flags' -> 'queue.futex' -> 'queue.next'); this needs cmm_smp_mb() here}} \
                                               same-note {{a cycle through 3 functions needs a full barrier on every link; 'queue_work' has none between its two accesses}}
    CMM_STORE_SHARED(woken, 1);
}

void destroy(void) {
  uatomic_or(&queue.flags, DESTROYER_SETS);
  cmm_smp_mb(); // same-note {{'destroy' orders the store to 'queue.flags' before the load of 'queue.futex' with 'cmm_smp_mb()'}}
  (void)uatomic_read(&queue.futex);
}

void *worker(void) {
  uatomic_set(&queue.futex, 0);
  cmm_smp_mb(); // same-note {{'worker' orders the store to 'queue.futex' before the load of 'queue.next' with 'cmm_smp_mb()'}}
  return CMM_LOAD_SHARED(queue.next);
}
