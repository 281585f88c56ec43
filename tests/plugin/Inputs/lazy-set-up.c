// A domain set up lazily on first use, as the kernel's SRCU does for a
// statically allocated srcu_struct: check_init() reads the flag with an
// acquire and returns where the set-up is done; else, under the lock, it
// checks again and runs the set-up, which ends by publishing the flag with
// a release. Every use calls it first.
#include "kernel.h"

struct spinlock {
  int raw;
};
void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);

struct domain {
  struct spinlock lock;
  unsigned long needed; // low bits set: not set up yet
  int size;
  long *counts;
};

static void set_up(struct domain *d, long *counts) {
  d->size = 1;
  d->counts = counts;
#ifdef PLAIN_PUBLISH
  d->needed = 0;
#else
  smp_store_release(&d->needed, 0);
#endif
}

static void check_init(struct domain *d, long *counts) {
#ifdef PLAIN_CHECK
  if (!(d->needed & 3))
#else
  if (!(smp_load_acquire(&d->needed) & 3))
#endif
    return;
  spin_lock(&d->lock);
  if (!(d->needed & 3)) {
    spin_unlock(&d->lock);
    return;
  }
  set_up(d, counts);
  spin_unlock(&d->lock);
}

long count(struct domain *d, long *counts) {
  check_init(d, counts);
  return d->counts[d->size];
}

// The set-up past the depth lowering follows calls: what the copy of
// set_up() inlined into count() stores and establishes stands for it.
static long deep_count(struct domain *d, long *counts) {
  check_init(d, counts);
  return d->counts[0];
}
static long middle_count(struct domain *d, long *counts) {
  return deep_count(d, counts);
}
long outer_count(struct domain *d, long *counts) {
  return middle_count(d, counts);
}

// A check that returns on both ways sets nothing up.
long peek(struct domain *d) {
  if (smp_load_acquire(&d->needed) & 3)
    d->size = 0;
  return d->size;
}
