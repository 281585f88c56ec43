// Writers that say, after their stores, that their callers hold the
// queue's lock, and readers that take it: a reader never runs with such a
// writer, so neither needs a barrier.
#include "queue.h"

static void queue_note_locked(struct queue *q) {
#ifndef NO_ASSERT
  lockdep_assert_held(&q->lock);
#endif
}

// Asserts through a helper of its own unit, at its end.
void queue_fill(struct queue *q, int item) {
  WRITE_ONCE(q->item, item);
  smp_wmb();
  WRITE_ONCE(q->ready, 1);
  queue_note_locked(q);
}

int queue_take(struct queue *q) {
  int item = -1;
  spin_lock(&q->lock);
  if (READ_ONCE(q->ready))
    item = READ_ONCE(q->item);
  spin_unlock(&q->lock);
  return item;
}

// Takes the lock itself, after its stores: its assertion says nothing of
// its callers, and the stores before the lock race with the reader.
void queue_fill_spare(struct queue *q, int item) {
  WRITE_ONCE(q->spare, item);
  smp_wmb();
  WRITE_ONCE(q->spare_ready, 1);
  spin_lock(&q->lock);
  lockdep_assert_held(&q->lock);
  spin_unlock(&q->lock);
}

int queue_take_spare(struct queue *q) {
  int item = -1;
  spin_lock(&q->lock);
  if (READ_ONCE(q->spare_ready))
    item = READ_ONCE(q->spare);
  spin_unlock(&q->lock);
  return item;
}

// Calls another unit's function that asserts: its callers hold the lock.
void queue_fill_extra(struct queue *q, int item) {
  WRITE_ONCE(q->extra, item);
  smp_wmb();
  WRITE_ONCE(q->extra_ready, 1);
  queue_check_locked(q);
}

int queue_take_extra(struct queue *q) {
  int item = -1;
  spin_lock(&q->lock);
  if (READ_ONCE(q->extra_ready))
    item = READ_ONCE(q->extra);
  spin_unlock(&q->lock);
  return item;
}

// Calls another unit's function that calls the one that asserts: two calls
// up, the analysis no longer carries the assertion.
void queue_fill_far(struct queue *q, int item) {
  WRITE_ONCE(q->far, item);
  smp_wmb();
  WRITE_ONCE(q->far_ready, 1);
  queue_relay_check(q);
}

int queue_take_far(struct queue *q) {
  int item = -1;
  spin_lock(&q->lock);
  if (READ_ONCE(q->far_ready))
    item = READ_ONCE(q->far);
  spin_unlock(&q->lock);
  return item;
}

// Takes the lock through a function the program does not define, which the
// analysis cannot see, then asserts it and releases it by name (the
// kernel's schedule() and its run-queue lock): a function that releases a
// lock may have taken it, so its assertion says nothing of its entry, and
// its stores before the lock race with their reader.
void queue_fill_hidden(struct queue *q, int item) {
  WRITE_ONCE(q->hidden, item);
  smp_wmb();
  WRITE_ONCE(q->hidden_ready, 1);
  queue_lock_elsewhere(q);
  lockdep_assert_held(&q->lock);
  spin_unlock(&q->lock);
}

int queue_take_hidden(struct queue *q) {
  int item = -1;
  spin_lock(&q->lock);
  if (READ_ONCE(q->hidden_ready))
    item = READ_ONCE(q->hidden);
  spin_unlock(&q->lock);
  return item;
}
