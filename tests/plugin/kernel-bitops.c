// The kernel's bit operations on x86 are inline assembly behind wrappers:
// set_bit() a locked `bts`, test_bit() of a bit number the front end
// cannot fold a `bt`. Each touches the one bit its number names, through
// the wrappers' parameters: a flag word's bits are flags of their own, as
// its masks are for atomic_or() and a mask of atomic_read()'s value.
// Message passing through a bit needs its smp_mb__before_atomic() (a void
// atomic orders nothing); a writer of another bit of the same word is not
// its partner.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=missing -DMISSING
// RUN: %barrierpair %s -Xclang -verify=same -DSAME_BIT
// RUN: %barrierpair %s -Xclang -verify=mask -DSAME_MASK
// RUN: %barrierpair %s -Xclang -verify=plain -DPLAIN_CLEAR
// RUN: %barrierpair %s -Xclang -verify=unlocked -DUNLOCKED
// RUN: %barrierpair %s -Xclang -verify -DSPIN
// expected-no-diagnostics
#include "kernel_bitops.h"

enum { QUEUE_STOPPED = 0, QUEUE_SCHEDULED = 9 };

struct queue {
  unsigned long state;
  atomic_t events;
  int work;
  int budget;
  int reason;
};

void schedule_work(struct queue *q, int work) {
  WRITE_ONCE(q->work, work); // missing-note {{'schedule_work' stores 'queue.work' here}}
#ifndef MISSING
  smp_mb__before_atomic();
#else
  // missing-warning@#set-bit {{no barrier orders the store to 'queue.work' before the store to 'queue.state' in 'schedule_work' (in its call of 'arch_set_bit'); with 'run_work' this is scenario 12 (message passing), which needs smp_wmb() here}}
  // missing-note@#set-bit {{scenario 12 (message passing) forbids}}
#endif
  set_bit(QUEUE_SCHEDULED, &q->state);
}

int run_work(struct queue *q) {
  if (!test_bit(QUEUE_SCHEDULED, &q->state))
    return 0;
  smp_rmb(); // missing-note {{'run_work' orders the load of 'queue.state' before the load of 'queue.work' with 'smp_rmb()'}}
  return READ_ONCE(q->work);
}

// Nobody reads the budget after finding the queue stopped.
void stop_queue(struct queue *q) {
  WRITE_ONCE(q->budget, 0); // same-note {{'stop_queue' stores 'queue.budget' here}}
  set_bit(QUEUE_STOPPED, &q->state); // same-warning@#set-bit {{no barrier orders the store to 'queue.budget' before the store to 'queue.state' in 'stop_queue' (in its call of 'arch_set_bit'); with 'scheduled_budget' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                        same-note@#set-bit {{scenario 12 (message passing) forbids}}
}

int scheduled_budget(struct queue *q) {
#ifdef SAME_BIT
  if (!test_bit(QUEUE_STOPPED, &q->state))
#else
  if (!test_bit(QUEUE_SCHEDULED, &q->state))
#endif
    return -1;
  smp_rmb(); // same-note {{'scheduled_budget' orders the load of 'queue.state' before the load of 'queue.budget' with 'smp_rmb()'}}
  return READ_ONCE(q->budget);
}

// The same through atomic_or()'s mask.
enum { EVENT_ERROR = 1 << 3, EVENT_DONE = 1 << 4 };

void report_error(struct queue *q, int reason) {
  WRITE_ONCE(q->reason, reason); // mask-note {{'report_error' stores 'queue.reason' here}}
  arch_atomic_or(EVENT_ERROR, &q->events); // mask-warning@kernel_bitops.h:* {{no barrier orders the store to 'queue.reason' before the store to 'queue.events.counter' in 'report_error' (in its call of 'arch_atomic_or'); with 'done_reason' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                              mask-note@kernel_bitops.h:* {{scenario 12 (message passing) forbids}}
}

int done_reason(struct queue *q) {
#ifdef SAME_MASK
  if (!(arch_atomic_read(&q->events) & EVENT_ERROR))
#else
  if (!(arch_atomic_read(&q->events) & EVENT_DONE))
#endif
    return 0;
  smp_rmb(); // mask-note {{'done_reason' orders the load of 'queue.events.counter' before the load of 'queue.reason' with 'smp_rmb()'}}
  return READ_ONCE(q->reason);
}

// A bit lock hands over what its holder wrote: clear_bit_unlock() is a
// release and test_and_set_bit_lock() an acquire (atomic_bitops.txt),
// though x86 writes the first as a compiler barrier before a plain clear.
// clear_bit() orders nothing.
enum { QUEUE_LOCKED = 2 };

void unlock_with_budget(struct queue *q, int budget) {
  WRITE_ONCE(q->budget, budget); // plain-note {{'unlock_with_budget' stores 'queue.budget' here}}
#ifdef PLAIN_CLEAR
  clear_bit(QUEUE_LOCKED, &q->state); // plain-warning@#clear-bit {{no barrier orders the store to 'queue.budget' before the store to 'queue.state' in 'unlock_with_budget' (in its call of 'arch_clear_bit'); with 'lock_for_budget' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                         plain-note@#clear-bit {{scenario 12 (message passing) forbids}}
#else
  clear_bit_unlock(QUEUE_LOCKED, &q->state);
#endif
}

int lock_for_budget(struct queue *q) {
  if (test_and_set_bit_lock(QUEUE_LOCKED, &q->state)) // plain-note {{'lock_for_budget' orders the load of 'queue.state' before the load of 'queue.budget' with 'test_and_set_bit_lock()'}}
    return -1;
  return READ_ONCE(q->budget);
}

// And a bit lock excludes: what one holder writes the next reads under the
// same bit (bit_spin_lock(), also handed the word's pointer). The
// test-and-set takes it where it returned zero.
enum { GROUP_LOCKED = 0 };

struct group {
  unsigned long flags;
  int head;
  int count;
};

void group_add(struct group *g, int head) {
  if (test_and_set_bit_lock(GROUP_LOCKED, &g->flags))
    return;
  WRITE_ONCE(g->head, head);
  WRITE_ONCE(g->count, 1); // unlocked-warning {{no barrier orders the store to 'group.head' before the store to 'group.count' in 'group_add'; with 'group_head' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                              unlocked-note {{scenario 12 (message passing) forbids}}
  clear_bit_unlock(GROUP_LOCKED, &g->flags);
}

int group_head(struct group *g) {
  int head = -1;
#if defined(SPIN)
  bit_spin_lock(GROUP_LOCKED, &g->flags);
#elif !defined(UNLOCKED)
  while (test_and_set_bit_lock(GROUP_LOCKED, &g->flags))
    ;
#endif
  if (READ_ONCE(g->count)) {
    smp_rmb(); // unlocked-note {{'group_head' orders the load of 'group.count' before the load of 'group.head' with 'smp_rmb()'}}
    head = READ_ONCE(g->head);
  }
#if defined(SPIN)
  bit_spin_unlock(GROUP_LOCKED, &g->flags);
#elif !defined(UNLOCKED)
  clear_bit_unlock(GROUP_LOCKED, &g->flags);
#endif
  return head;
}
