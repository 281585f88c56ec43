// A list taken whole by swapping a null pointer into its head (the
// kernel's llist_del_all(); mimalloc's abandoned segments: `first =
// mi_atomic_exchange_ptr_acq_rel(mi_segment_t, &abandoned_visited, NULL)`)
// is the taker's: nobody else finds its nodes through the head any more,
// so walking it and relinking its last node race with nothing until the
// compare-and-swap that hands it over succeeds. The nodes' `next`, named by
// its type, otherwise pairs the walk with every other function's nodes.
// A list only read (an acquire load of the head) is still everybody's, and
// a compare-and-swap whose result is not tested may have handed it over
// before the walk.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DURCU -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DREAD_ONLY -Xclang -verify=shared
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DUNTESTED 2>&1 | FileCheck %s --check-prefix=UNTESTED
// UNTESTED: warning: {{.*}}'segment.next'{{.*}}[barrierpair-
// expected-no-diagnostics
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct segment {
  struct segment *_Atomic next;
};

static struct segment *_Atomic abandoned, *_Atomic visited;

void push_visited(struct segment *segment) {
  struct segment *old = atomic_load_explicit(&visited, memory_order_relaxed);
  do {
    atomic_store_explicit(&segment->next, old, memory_order_release);
  } while (!atomic_compare_exchange_weak_explicit(&visited, &old, segment, memory_order_release,
                                                  memory_order_relaxed));
}

#ifdef URCU
#include <urcu/uatomic.h>
// A helper that returns a list taken through liburcu's exchange is no
// allocator: its caller's reads of the nodes are still the head's message.
static struct segment *parked;
static struct segment *take_parked(void) {
  struct segment *taken = uatomic_xchg(&parked, NULL);
  return taken;
}
void drain_parked(void) {
  struct segment *taken = take_parked();
  while (taken)
    taken = atomic_load_explicit(&taken->next, memory_order_relaxed);
}
#endif

static bool revisit(void) {
#if defined(READ_ONLY)
  struct segment *first = atomic_load_explicit(&visited, memory_order_acquire);
#else
  struct segment *first = atomic_exchange_explicit(&visited, NULL, memory_order_acq_rel);
#endif
  if (first == NULL)
    return false;
  struct segment *head = atomic_load_explicit(&abandoned, memory_order_relaxed);
#ifdef UNTESTED
  atomic_compare_exchange_strong_explicit(&abandoned, &head, first, memory_order_acq_rel,
                                          memory_order_relaxed);
#else
  if (head == NULL &&
      atomic_compare_exchange_strong_explicit(&abandoned, &head, first, memory_order_acq_rel,
                                              memory_order_relaxed))
    return true;
#endif
  struct segment *last = first, *next;
  while ((next = atomic_load_explicit(&last->next, memory_order_relaxed)) != NULL) // shared-warning {{no barrier orders the load of 'abandoned' before the load of 'segment.next' in 'collect' (in its call of 'revisit'); with 'reclaim_all' this is scenario 1}} \
                                                                                      shared-note {{scenario 1 forbids}}
    last = next;
  head = atomic_load_explicit(&abandoned, memory_order_relaxed);
  do {
    atomic_store_explicit(&last->next, head, memory_order_release);
  } while (!atomic_compare_exchange_weak_explicit(&abandoned, &head, first, memory_order_release, // shared-note {{'reclaim_all' orders the load of 'segment.next' before the store to 'abandoned'}}
                                                  memory_order_relaxed));
  return true;
}

void collect(void) {
  revisit();
}

void reclaim_all(void) {
  revisit();
}
