// A compare-and-swap that reports whether it stored (C11's
// compare_exchange) stores nothing on the branch where its test says it
// failed: there it is a load. The claimer that reads the message only after
// losing the race made no store before that read; the one that reads it
// after winning did (store buffering against the partner's fence).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DAFTER_WINNING -Xclang -verify=won
// expected-no-diagnostics
#include <stdatomic.h>

static _Atomic int owner, message;

int claimer(void) {
  int expected = 0;
#ifdef AFTER_WINNING
  if (atomic_compare_exchange_strong_explicit(&owner, &expected, 1, memory_order_relaxed,
                                              memory_order_relaxed))
#else
  if (!atomic_compare_exchange_strong_explicit(&owner, &expected, 1, memory_order_relaxed,
                                               memory_order_relaxed))
#endif
    return atomic_load_explicit(&message, memory_order_relaxed); // won-warning {{no barrier orders the store to 'owner' before the load of 'message' in 'claimer'; with 'partner' this is scenario 10 (Dekker)}} \
                                                                    won-note {{scenario 10 (Dekker) forbids}}
  return 0;
}

int partner(void) {
  atomic_store_explicit(&message, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst); // won-note {{'partner' orders the store to 'message' before the load of 'owner' with 'atomic_thread_fence()'}}
  return atomic_load_explicit(&owner, memory_order_relaxed);
}
