// A field of a global variable is memory that a pointer to a container
// of some type reaches only where the global holds such a container on
// the way: its path ends with the container's. A global counter of its
// own (`online.counter`) is no `.in_progress.counter` of any `struct
// work`, though both are `atomic_t.counter`, which `read_any()` reaches
// through a pointer to any instance (the kernel's synchronize_rcu(),
// reading `__num_online_cpus`, against kvfree_call_rcu()'s exchange of
// `krcp->work_in_progress`). A global that holds a `struct work`
// (-DHELD) may be the work a pointer reaches, and the Dekker pairing is
// reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DHELD -Xclang -verify=held
// expected-no-diagnostics
#include "kernel.h"

typedef struct {
  int counter;
} atomic_t;

struct state {
  unsigned long polled;
};

struct work {
  atomic_t in_progress;
  int pending;
};

struct holder {
  struct work work;
};

struct state gp;
atomic_t online;
struct holder held;

int read_any(atomic_t *v) {
  return READ_ONCE(v->counter);
}

int sync_state(void) {
  WRITE_ONCE(gp.polled, 1);
#ifdef HELD
  return READ_ONCE(held.work.in_progress.counter); // held-warning {{no barrier orders the store to 'gp.polled' before the load of 'held.work.in_progress.counter' in 'sync_state'; with 'queue_work' this is scenario 10 (Dekker), which needs smp_mb() here}} \
                                                      held-note {{scenario 10 (Dekker)}}
#else
  return READ_ONCE(online.counter);
#endif
}

void queue_work(struct work *work) {
  WRITE_ONCE(work->in_progress.counter, 1);
  smp_mb(); // held-note {{'queue_work' orders the store to 'work.in_progress.counter' before the load of 'gp.polled' with 'smp_mb()'}}
  (void)READ_ONCE(gp.polled);
}
