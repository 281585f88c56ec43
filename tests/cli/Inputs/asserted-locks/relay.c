// A caller of the assertion, in a unit of its own.
#include "queue.h"

void queue_relay_check(struct queue *q) { queue_check_locked(q); }
