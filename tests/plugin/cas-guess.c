// A lock-free stack: the push's guess (a relaxed load of the head that its
// compare-and-swap reads again before anything else is read) claims no
// order; the compare-and-swap does. A consumer that takes the whole stack
// with an exchange meets the push's compare-and-swap in the head's
// modification order: its exchange reads what the push wrote, so release
// and acquire are what the pair needs (message passing), not full barriers.
// Quiet. A consumer whose exchange is relaxed reads the nodes unordered.
//
// RUN: %barrierpair %s -Xclang -verify -Xclang -verify-ignore-unexpected=note
#include <stdatomic.h>
#include <stddef.h>

struct seg {
  struct seg *_Atomic next;
};
static struct seg *_Atomic list, *_Atomic other_list;

void push(struct seg *s) {
  atomic_store_explicit(&s->next, NULL, memory_order_release);
  struct seg *old = atomic_load_explicit(&list, memory_order_relaxed); // the guess
  do {
    atomic_store_explicit(&s->next, old, memory_order_release);
  } while (!atomic_compare_exchange_weak_explicit(&list, &old, s, memory_order_release,
                                                  memory_order_relaxed));
}

int pop_all(void) {
  struct seg *first = atomic_exchange_explicit(&list, NULL, memory_order_acq_rel);
  int n = 0;
  while (first) {
    struct seg *next = atomic_load_explicit(&first->next, memory_order_relaxed);
    atomic_store_explicit(&first->next, NULL, memory_order_release);
    n++;
    first = next;
  }
  return n;
}

// The same stack, its consumer's exchange relaxed.
void push_other(struct seg *s) {
  struct seg *old = atomic_load_explicit(&other_list, memory_order_relaxed);
  do {
    atomic_store_explicit(&s->next, old, memory_order_relaxed);
  } while (!atomic_compare_exchange_weak_explicit(&other_list, &old, s, memory_order_release,
                                                  memory_order_relaxed));
}

struct seg *pop_other_relaxed(void) {
  struct seg *first = atomic_exchange_explicit(&other_list, NULL, memory_order_relaxed);
  return first ? atomic_load_explicit(&first->next, memory_order_relaxed) : NULL; // expected-warning {{no barrier orders the load of 'other_list' before the load of 'seg.next' in 'pop_other_relaxed'; with 'push_other' this is scenario 3 (message passing)}}
}
