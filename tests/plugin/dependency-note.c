// A partner that orders a load before a store by a data dependency, where
// the load is a volatile read that no table row names (the kernel's
// arch_atomic_read(), whose __READ_ONCE() is a volatile cast): the note
// says the store depends on the value it read, and names no primitive
// (it used to call the read "a sequentially consistent atomic access").
// With READ_ONCE() (-DNAMED) it names the primitive.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNAMED -Xclang -verify=named
#include "kernel.h"

int limit, queued;

static inline int read_queued(const int *counter) {
#ifdef NAMED
  return READ_ONCE(*counter); // named-note {{'resize' orders the load of 'queued' before the store to 'limit', which depends on its value read with 'READ_ONCE()' (in its call of 'read_queued')}}
#else
  return *(const volatile int *)counter; // expected-note {{'resize' orders the load of 'queued' before the store to 'limit', which depends on the value it read (in its call of 'read_queued')}}
#endif
}

void resize(void) {
  int now = read_queued(&queued);
  WRITE_ONCE(limit, now * 2);
}

int enqueue(void) {
  int seen = READ_ONCE(limit);
  WRITE_ONCE(queued, 1); // expected-warning {{no barrier orders the load of 'limit' before the store to 'queued' in 'enqueue'; with 'resize' this is scenario 5 (inverse Dekker), which needs smp_mb() here}} \
                            expected-note {{scenario 5}} named-warning {{no barrier orders the load of 'limit'}} named-note {{scenario 5}}
  return seen;
}
