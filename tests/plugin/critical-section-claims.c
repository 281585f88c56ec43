// A barrier claims the order of the accesses its own stretch of code makes,
// not of one a critical section made before it: a store under a lock is
// the lock's to publish, to the next holder. The grace-period kthread's
// shape (kernel/rcu/tree.c): it advances a sequence under a node lock, and
// later orders its force-quiescent-state time before its kick time with
// smp_wmb(); the scheduler tick reads the kick time, then the sequence,
// and records the kick time it saw. The barrier asks nothing of that
// reader (an order nobody claimed, as an unlock followed by a lock,
// lock-orders.c), unless the reader reads the sequence only when the kick
// time says so (-DGUARDED: message passing meant). Without the lock
// (-DNO_LOCK) the barrier claims the sequence too. The barrier's own pair,
// the force time after the kick time, is claimed either way.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DGUARDED -Xclang -verify=expected,reported
// RUN: %barrierpair %s -DNO_LOCK -Xclang -verify=expected,reported
#include "kernel.h"
#include "kernel-spinlock.h"

struct period {
  spinlock_t lock;
  unsigned long seq, force, kick, seen;
};

void period_advance(struct period *p) {
#ifndef NO_LOCK
  spin_lock(&p->lock);
#endif
  WRITE_ONCE(p->seq, p->seq + 1);
#ifndef NO_LOCK
  spin_unlock(&p->lock);
#endif
  WRITE_ONCE(p->force, 1);
  smp_wmb(); // expected-note {{'period_advance' orders the store to 'period.force' before the store to 'period.kick' with 'smp_wmb()'}} \
                reported-note {{'period_advance' orders the store to 'period.seq' before the store to 'period.kick' with 'smp_wmb()'}}
  WRITE_ONCE(p->kick, 2);
}

unsigned long period_tick(struct period *p) {
  unsigned long kick = READ_ONCE(p->kick), seq;
#ifdef GUARDED
  if (!kick)
    return 0;
#endif
  seq = READ_ONCE(p->seq); // reported-warning {{no barrier orders the load of 'period.kick' before the load of 'period.seq' in 'period_tick'; with 'period_advance' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                              reported-note {{scenario 3 (message passing) forbids}}
  WRITE_ONCE(p->seen, kick);
  return seq;
}

unsigned long period_forced(struct period *p) {
  if (!READ_ONCE(p->kick))
    return 0;
  return READ_ONCE(p->force); // expected-warning {{no barrier orders the load of 'period.kick' before the load of 'period.force' in 'period_forced'; with 'period_advance' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                 expected-note {{scenario 3 (message passing) forbids}}
}
