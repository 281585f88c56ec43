// A row with a third CPU's store (scenario 2: the reader loads the head,
// then the entry's field through it; the updater stores the field, a full
// barrier, then loads the head; a third function publishes the head) asks
// a full barrier of the reader only where that third store is independent.
// Where every third store of the head holds the lock the updater holds at
// both its accesses, the lock's release and acquire carry the publication
// to the updater and on, as one writer's would: LKMM forbids the outcome
// with the reader's address dependency alone (ISA2+release+acqrel+acquire,
// the kernel's multicast lists under `idev->mc_lock` read with
// rcu_dereference()). With -DUNLOCKED the publication takes no lock, and
// the dependency is too weak.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DUNLOCKED -Xclang -verify=unlocked
// expected-no-diagnostics
#include "kernel.h"

#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

struct mutex {
  int owner;
};
void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

struct entry {
  int sources;
};
struct dev {
  struct entry *head;
  struct mutex lock;
};
struct dev dev;

int reader(void) {
  struct entry *e = rcu_dereference(dev.head); // unlocked-warning {{'rcu_dereference()' is too weak to order the load of 'dev.head' before the load of 'entry.sources' in 'reader'; with 'update_sources' this is scenario 2, which needs smp_mb() here}} \
                                                  unlocked-note {{scenario 2 forbids r1 == 1 && r2 == 0 && r4 == 0}}
  return e ? READ_ONCE(e->sources) : 0;
}

void update_sources(struct entry *e) {
  mutex_lock(&dev.lock);
  WRITE_ONCE(e->sources, 2);
  smp_mb(); // unlocked-note {{'update_sources' orders the store to 'entry.sources' before the load of 'dev.head' with 'smp_mb()'}}
  if (READ_ONCE(dev.head) == e)
    WRITE_ONCE(e->sources, 3);
  mutex_unlock(&dev.lock);
}

void publish(struct entry *e) {
#ifndef UNLOCKED
  mutex_lock(&dev.lock);
#endif
  rcu_assign_pointer(dev.head, e);
#ifndef UNLOCKED
  mutex_unlock(&dev.lock);
#endif
}
