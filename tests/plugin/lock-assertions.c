// The kernel's lockdep_assert_held() is the code's own statement that its
// caller holds a lock: the accesses after it hold that lock, as if it were
// taken there. Two functions that both state it for one lock run one at a
// time, so their accesses pair with nothing; a function that states another
// lock still pairs. Without lockdep the macro expands to `do { (void)(l); }
// while (0)`, no call: the lock is its argument.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

#define lockdep_assert_held(l) do { (void)(l); } while (0)

struct lock {
  int owner;
};

struct dev {
  struct lock lock, other_lock;
  int want, ready;
};

int request(struct dev *dev) {
  lockdep_assert_held(&dev->lock);
  WRITE_ONCE(dev->want, 1);
  smp_mb(); // expected-note {{'request' orders the store to 'dev.want' before the load of 'dev.ready' with 'smp_mb()'}}
  return READ_ONCE(dev->ready);
}

int grant(struct dev *dev) {
  lockdep_assert_held(&dev->lock);
  WRITE_ONCE(dev->ready, 1);
  return READ_ONCE(dev->want);
}

int grant_elsewhere(struct dev *dev) {
  lockdep_assert_held(&dev->other_lock);
  WRITE_ONCE(dev->ready, 1);
  return READ_ONCE(dev->want); // expected-warning {{no barrier orders the store to 'dev.ready' before the load of 'dev.want' in 'grant_elsewhere'; with 'request' this is scenario 10 (Dekker)}} \
                                  expected-note {{scenario 10}}
}
