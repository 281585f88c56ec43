// One allocation, named through several locals (mimalloc's thread data: a
// heap and its thread-local data in one block). Pointers into the block
// stored into the block hand it to nobody; the block is published once, by
// whichever of its names is handed over, and its initialisation before
// that pairs with nothing. The late variant publishes the heap first: then
// its stores race with the reader that reaches it.
//
// RUN: %barrierpair %s -Xclang -verify -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DLATE -Xclang -verify=late -Xclang -verify-ignore-unexpected=note
#include <stdatomic.h>
#include <stdlib.h>

typedef struct tld_s {
  struct heap_s *heap_backing;
  struct heap_s *heaps;
} tld_t;
typedef struct heap_s {
  tld_t *tld;
  unsigned long thread_id;
} heap_t;
typedef struct {
  heap_t heap;
  tld_t tld;
} thread_data_t;

static _Atomic(thread_data_t *) cache[4];
extern __thread heap_t *default_heap;

// Takes a cached block (the exchange hands it over) or allocates one.
static thread_data_t *thread_data_alloc(void) {
  for (int i = 0; i < 4; i++) {
    thread_data_t *td = atomic_exchange_explicit(&cache[i], NULL, memory_order_acq_rel);
    if (td)
      return td;
  }
  return malloc(sizeof(thread_data_t));
}

static void set_default(heap_t *heap) { default_heap = heap; }

int heap_init(void) {
  thread_data_t *td = thread_data_alloc();
  if (!td)
    return 0;
  tld_t *tld = &td->tld;
  heap_t *heap = &td->heap;
#ifdef LATE
  set_default(heap);
#endif
  heap->thread_id = 5; // late-warning {{the store to 'heap_s.thread_id' in 'heap_init' is not marked}}
  heap->tld = tld; // late-warning {{the store to 'heap_s.tld' in 'heap_init' is not marked}}
  tld->heap_backing = heap;
  tld->heaps = heap; // late-warning {{the store to 'tld_s.heaps' in 'heap_init' is not marked}}
#ifndef LATE
  set_default(heap);
#endif
  return 1;
}

void thread_done(void *value) {
  heap_t *heap = value;
  if (heap->thread_id == 0 || heap->tld->heaps == 0) // late-warning {{the load of 'heap_s.thread_id' in 'thread_done' is not marked}} \
                                                        late-warning {{the load of 'heap_s.tld' in 'thread_done' is not marked}} \
                                                        late-warning {{the load of 'tld_s.heaps' in 'thread_done' is not marked}}
    return;
  for (int i = 0; i < 4; i++) {
    thread_data_t *td = atomic_exchange_explicit(&cache[i], NULL, memory_order_acq_rel);
    free(td);
  }
}
// expected-no-diagnostics
