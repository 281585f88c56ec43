// The kernel's smp_mb__after_unlock_lock(), written right after a lock (the
// RCU core's raw_spin_lock_rcu_node()), makes an unlock earlier on the path
// and that lock a full barrier, whatever the code does between them (LKMM:
// an access before the unlock, then the lock and the fence, then an access,
// is ordered as by smp_mb()). Without the fence (-DWITHOUT), an unlock and a
// lock with an access between them order nothing for another CPU. An access
// made between the unlock and the lock is not ordered by it (-DBETWEEN), and
// the fence orders nothing after a lock that no unlock precedes on the path
// (-DNO_UNLOCK): each of these leaves the reader of a message without the
// order its check of the flag needs.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DWITHOUT -Xclang -verify=flagged
// RUN: %barrierpair %s -DBETWEEN -Xclang -verify=flagged
// RUN: %barrierpair %s -DNO_UNLOCK -Xclang -verify=flagged
// expected-no-diagnostics
#include "kernel.h"
#include "kernel-spinlock.h"

#ifdef WITHOUT
#define lock_node(node) spin_lock(&(node)->lock)
#else
#define lock_node(node)                                                                            \
  do {                                                                                             \
    spin_lock(&(node)->lock);                                                                      \
    smp_mb__after_unlock_lock();                                                                   \
  } while (0)
#endif

struct node {
  spinlock_t lock;
  int qsmask;
};

struct gp_state {
  int ready, data, stats;
};

struct node leaf, root;
struct gp_state gp;

// The flag read in the leaf's critical section, the data in the root's,
// with an unlock and other work between them.
int gp_collect(void) {
  int seen;
#ifndef NO_UNLOCK
  spin_lock(&leaf.lock);
#ifndef BETWEEN
  seen = READ_ONCE(gp.ready);
#endif
  WRITE_ONCE(leaf.qsmask, 0);
  spin_unlock(&leaf.lock);
#endif
#if defined(BETWEEN) || defined(NO_UNLOCK)
  seen = READ_ONCE(gp.ready);
#endif
  if (!seen)
    return 0;
  WRITE_ONCE(gp.stats, 1);
  lock_node(&root);
  int data = READ_ONCE(gp.data); // flagged-warning {{no barrier orders the load of 'gp.ready' before the load of 'gp.data' in 'gp_collect'; with 'gp_publish' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                    flagged-note {{scenario 3 (message passing) forbids}}
  spin_unlock(&root.lock);
  return data;
}

void gp_publish(int data) {
  WRITE_ONCE(gp.data, data);
  smp_wmb(); // flagged-note {{'gp_publish' orders the store to 'gp.data' before the store to 'gp.ready' with 'smp_wmb()'}}
  WRITE_ONCE(gp.ready, 1);
}
