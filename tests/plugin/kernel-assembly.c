// x86 writes the kernel's atomics that return nothing (atomic_inc(),
// set_bit()) and the test-and-set forms (atomic_dec_and_test()) as
// `lock`-prefixed assembly. Each memory operand is a read-modify-write;
// Documentation/atomic_t.txt orders the first kind not at all and the
// second fully. Message passing whose flag is an atomic_inc() needs its
// smp_mb__before_atomic() (tcp_fastopen_active_disable()). Bit numbers
// and masks are tests/plugin/kernel-bitops.c.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=missing -DMISSING
// RUN: %barrierpair %s -Xclang -verify=void -DVOID_ATOMIC
// expected-no-diagnostics
#include "kernel.h"

#define smp_mb__before_atomic() smp_mb()

typedef struct {
  int counter;
} atomic_t;

static inline void arch_atomic_inc(atomic_t *v) {
  asm volatile("lock; incl %0" : "+m"(v->counter)::"memory"); // #increment
}

static inline int arch_atomic_read(const atomic_t *v) {
  return READ_ONCE(v->counter);
}

static inline int arch_atomic_dec_and_test(atomic_t *v) {
  asm goto("lock; decl %[var]; je %l[zero]" : : [var] "m"(v->counter) : "memory" : zero);
  return 0;
zero:
  return 1;
}

struct netns {
  unsigned long disable_stamp;
  atomic_t disable_times;
  atomic_t users;
  int config;
};

void disable(struct netns *net, unsigned long now) {
  WRITE_ONCE(net->disable_stamp, now); // missing-note {{'disable' stores 'netns.disable_stamp' here}}
#ifndef MISSING
  smp_mb__before_atomic();
#else
  // missing-warning@#increment {{no barrier orders the store to 'netns.disable_stamp' before the store to 'netns.disable_times.counter' in 'disable' (in its call of 'arch_atomic_inc'); with 'should_disable' this is scenario 12 (message passing)}}
  // missing-note@#increment {{scenario 12 (message passing) forbids}}
#endif
  arch_atomic_inc(&net->disable_times);
}

unsigned long should_disable(struct netns *net) {
  if (!arch_atomic_read(&net->disable_times))
    return 0;
  smp_rmb(); // missing-note {{'should_disable' orders the load of 'netns.disable_times.counter' before the load of 'netns.disable_stamp' with 'smp_rmb()'}}
  return READ_ONCE(net->disable_stamp);
}

// The test-and-set form is a full barrier of its own; the increment is none.
int flag_a, flag_b;

int enter_a(struct netns *net) {
  WRITE_ONCE(flag_a, 1);
#ifdef VOID_ATOMIC
  arch_atomic_inc(&net->users);
  return READ_ONCE(flag_b); // void-warning {{no barrier orders the store to 'flag_a' before the load of 'flag_b' in 'enter_a'; with 'enter_b' this is scenario 10 (Dekker)}} \
                               void-note {{scenario 10 (Dekker) forbids}}
#else
  arch_atomic_dec_and_test(&net->users);
  return READ_ONCE(flag_b);
#endif
}

int enter_b(void) {
  WRITE_ONCE(flag_b, 1);
  smp_mb(); // void-note {{'enter_b' orders the store to 'flag_b' before the load of 'flag_a' with 'smp_mb()'}}
  return READ_ONCE(flag_a);
}
