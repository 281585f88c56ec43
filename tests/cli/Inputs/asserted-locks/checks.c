// The queue's assertion in a unit of its own: its callers hold the lock.
#include "queue.h"

void queue_check_locked(struct queue *q) {
#ifndef NO_ASSERT
  lockdep_assert_held(&q->lock);
#endif
}
