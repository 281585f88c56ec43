// A relaxed load of X that the code reads again with an acquire load (or a
// read-modify-write) of X before it goes on: the later read sees the same
// value or a newer one, and it is ordered before what follows, so the
// first load claims no order past it (mimalloc's pop: a quick look at the
// stack's head, then the acquire load it works from). The same shape
// through a field named by its type may be two lists, not one location:
// still reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DBY_TYPE -Xclang -verify=type
// expected-no-diagnostics
#include <stdatomic.h>
#include <stddef.h>

struct list {
  int *_Atomic first;
};
static _Atomic int payload;

#ifndef BY_TYPE
static int *_Atomic head;

void publish(int *item) {
  atomic_store_explicit(&payload, 1, memory_order_relaxed);
  atomic_store_explicit(&head, item, memory_order_release);
}

int consume(void) {
  if (atomic_load_explicit(&head, memory_order_relaxed) == NULL)
    return 0;
  if (atomic_load_explicit(&head, memory_order_acquire) == NULL)
    return 0;
  return atomic_load_explicit(&payload, memory_order_relaxed);
}
#else
void publish(struct list *list, int *item) {
  atomic_store_explicit(&payload, 1, memory_order_relaxed);
  atomic_store_explicit(&list->first, item, memory_order_release); // type-note {{'publish' orders the store to 'payload' before the store to 'list.first' with 'atomic_store_explicit()'}}
}

int consume(struct list *list, struct list *other) {
  if (atomic_load_explicit(&list->first, memory_order_relaxed) == NULL)
    return 0;
  if (atomic_load_explicit(&other->first, memory_order_acquire) == NULL)
    return 0;
  return atomic_load_explicit(&payload, memory_order_relaxed); // type-warning {{no barrier orders the load of 'list.first' before the load of 'payload' in 'consume'; with 'publish' this is scenario 3 (message passing)}} \
                                                                  type-note {{scenario 3 (message passing) forbids}}
}
#endif
