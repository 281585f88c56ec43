// A store of an address writes no null pointer: `owner = &me`, and a node
// a loop waited for until it was not null (`while ((next =
// CMM_LOAD_SHARED(*link)) == NULL) ...`, liburcu's queue waiting for an
// enqueuer's link), also what a helper returns that waits so, and through
// an inline helper's parameter. A side that
// goes on only when it read the pointer null never reaches its second
// access by reading such a store, as with a flag only ever set
// (tests/plugin/value-guards.c). Where some store writes NULL again, it
// may, and the pairing stands.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DCLEARED -Xclang -verify=cleared
// RUN: %barrierpair %s -DHELPER -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DUNWAITED -Xclang -verify=cleared
// expected-no-diagnostics
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/system.h>

struct waiter {
  int woken;
};
struct lock {
  struct waiter *owner;
  int pending;
};
static struct waiter me;

void request(struct lock *l, int on) {
  CMM_STORE_SHARED(l->pending, on);
}

// Takes the lock for `me` when nobody asked for it, with a full barrier
// between the check and the store.
void take(struct lock *l) {
  if (CMM_LOAD_SHARED(l->pending))
    return;
  cmm_smp_mb(); // cleared-note {{'take' orders the load of 'lock.pending' before the store to 'lock.owner' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(l->owner, &me);
}

static inline void set_owner(struct lock *l, struct waiter *next) {
  CMM_STORE_SHARED(l->owner, next);
}

static struct waiter *wait_link(struct waiter **link) {
  struct waiter *next;
  while ((next = CMM_LOAD_SHARED(*link)) == NULL)
    caa_cpu_relax();
  return next;
}

// Hands the lock to the waiter a queue's link names, once it is there.
void hand_over(struct lock *l, struct waiter **link) {
  struct waiter *next;
#if defined(UNWAITED)
  next = CMM_LOAD_SHARED(*link);
#elif defined(HELPER)
  next = wait_link(link);
#else
  while ((next = CMM_LOAD_SHARED(*link)) == NULL)
    caa_cpu_relax();
#endif
  set_owner(l, next);
}

#ifdef CLEARED
void release(struct lock *l) {
  CMM_STORE_SHARED(l->owner, NULL);
}
#endif

// Reads `pending` only when the lock has no owner, with no barrier between.
int try_wait(struct lock *l) {
  if (!CMM_LOAD_SHARED(l->owner)) {
    if (CMM_LOAD_SHARED(l->pending)) // cleared-warning {{no barrier orders the load of 'lock.owner' before the load of 'lock.pending' in 'try_wait'; with 'take' this is scenario 1}} \
                                        cleared-note {{scenario 1 forbids}}
      return -1;
    return 1;
  }
  return 0;
}
