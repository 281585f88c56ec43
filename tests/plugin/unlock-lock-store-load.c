// The kernel's unlock followed by a lock orders everything before the
// unlock against everything after the lock but a store before it against a
// load after it (LKMM: po-unlock-lock-po is a cumul-fence, not a strong
// fence; memory-barriers.txt: an UNLOCK followed by a LOCK is not a full
// barrier, smp_mb__after_unlock_lock() makes it one). A flusher that
// publishes itself under one lock and then reads the queue's flags under
// another makes no Dekker pair with a rescuer that sets the flags and reads
// the flusher after smp_mb(): nothing is claimed of the flusher's plain
// store (the kernel's __flush_workqueue() against rescuer_thread(), whose
// findings on `first_flusher` went). With the fence after the lock
// (-DAFTER_UNLOCK_LOCK) the pair is a full barrier, the Dekker pair forms,
// and the plain accesses race.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DAFTER_UNLOCK_LOCK -Xclang -verify=fenced
// expected-no-diagnostics
#include "kernel.h"
#include "kernel-spinlock.h"

struct flusher {
  int color;
};

struct queue {
  spinlock_t lock, pool_lock;
  struct flusher *first;
  int flags;
};

void flush_queue(struct queue *q, struct flusher *self) {
  spin_lock(&q->lock);
  q->first = self; // fenced-warning {{the store to 'queue.first' in 'flush_queue' is not marked, but it races with the load of 'queue.first' in 'rescue'; mark it: WRITE_ONCE(q->first, self)}} \
                      fenced-note {{'flush_queue' stores 'queue.first' here}} \
                      fenced-note {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0}}
  spin_unlock(&q->lock);
  spin_lock(&q->pool_lock); // fenced-note {{'flush_queue' orders the store to 'queue.first' before the load of 'queue.flags' with 'spin_lock()'}}
#ifdef AFTER_UNLOCK_LOCK
  smp_mb__after_unlock_lock();
#endif
  if (READ_ONCE(q->flags))
    self->color = 1;
  spin_unlock(&q->pool_lock);
}

int rescue(struct queue *q) {
  WRITE_ONCE(q->flags, 1);
  smp_mb(); // fenced-note {{'rescue' orders the store to 'queue.flags' before the load of 'queue.first' with 'smp_mb()'}}
  return q->first != 0; // fenced-warning {{the load of 'queue.first' in 'rescue' is not marked, but it races with the store to 'queue.first' in 'flush_queue'; mark it: READ_ONCE(q->first)}} \
                           fenced-note {{'rescue' loads 'queue.first' here}} \
                           fenced-note {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0}}
}
