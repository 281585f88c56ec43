// A read-modify-write whose result the code drops (`atomic_fetch_add(&users,
// 1, ...);` as a statement) is done for its write: its read decides
// nothing, so it claims no order of its own (no outcome can show what it
// read), while its write is checked like any store. mimalloc's pops count
// themselves among the abandoned list's readers that way, and liburcu's
// completion decrements its futex; their reads paired as load buffering.
// Where the code uses what the read returns, that pairing stands.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=dropped
// RUN: %barrierpair %s -DVALUE_USED -Xclang -verify=used
#include <stdatomic.h>

static _Atomic int users, ready;
int first_user;

void enter(void) {
#ifdef VALUE_USED
  if (atomic_fetch_add_explicit(&users, 1, memory_order_relaxed) == 0)
    first_user = 1;
  atomic_store_explicit(&ready, 1, memory_order_relaxed); // used-warning {{no barrier orders the load of 'users' before the store to 'ready' in 'enter'; with 'watch' this is scenario 5 (inverse Dekker)}} \
                                                             used-note {{scenario 5 (inverse Dekker) forbids}}
#else
  atomic_fetch_add_explicit(&users, 1, memory_order_relaxed);
  atomic_store_explicit(&ready, 1, memory_order_relaxed); // dropped-warning {{no barrier orders the store to 'users' before the store to 'ready' in 'enter'; with 'watch' this is scenario 13, which needs atomic_thread_fence(memory_order_release) here [barrierpair-missing-barrier]}} \
                                                             dropped-note {{scenario 13 forbids}}
#endif
}

void watch(void) {
  if (atomic_load_explicit(&ready, memory_order_acquire)) // used-note {{'watch' orders the load of 'ready' before the store to 'users' with 'atomic_load_explicit()'}} \
                                                             dropped-note {{'watch' orders the load of 'ready' before the store to 'users' with 'atomic_load_explicit()'}}
    atomic_store_explicit(&users, 0, memory_order_relaxed);
}
