// The kernel's read-modify-writes and locks by name: x86 writes xchg() and
// friends in assembly, which orders nothing the analysis can see, so the
// table says what Documentation/atomic_t.txt promises (no suffix: fully
// ordered; _relaxed: nothing), and spin_lock_irqsave() is a lock as
// spin_lock() is.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

#define __xchg_asm(ptr, v)                                                                         \
  ({                                                                                               \
    __typeof__(*(ptr)) __value = (v);                                                              \
    __asm__ __volatile__("xchg %0, %1" : "+r"(__value), "+m"(*(ptr)) : : "memory");               \
    __value;                                                                                       \
  })
#define xchg(ptr, v) __xchg_asm(ptr, v)
#define xchg_relaxed(ptr, v) __xchg_asm(ptr, v)

// Dekker's flags: one side's exchange is its full barrier.
int enter_a, enter_b;

int claim_a(void) {
  xchg(&enter_a, 1);
  return READ_ONCE(enter_b);
}

int claim_b(void) {
  WRITE_ONCE(enter_b, 1);
  smp_mb();
  return READ_ONCE(enter_a);
}

// A relaxed exchange against a full barrier: store buffering, its side open.
int relaxed_a, relaxed_b;

int fenced_claim_a(void) {
  WRITE_ONCE(relaxed_a, 1);
  smp_mb(); // expected-note {{'fenced_claim_a' orders the store to 'relaxed_a' before the load of 'relaxed_b' with 'smp_mb()'}}
  return READ_ONCE(relaxed_b);
}

int relaxed_claim_b(void) {
  xchg_relaxed(&relaxed_b, 1);
  return READ_ONCE(relaxed_a); // expected-warning {{no barrier orders the store to 'relaxed_b' before the load of 'relaxed_a' in 'relaxed_claim_b'; with 'fenced_claim_a' this is scenario 10 (Dekker), which needs smp_mb() here}} \
                                  expected-note {{scenario 10}}
}

// Both sides under one spin_lock_irqsave(): they never run at once, so the
// missing rmb orders nothing anyone could see.
typedef struct {
  int locked;
} spinlock_t;
void __lock_acquire_irq(spinlock_t *lock, unsigned long *flags);
void __lock_release_irq(spinlock_t *lock, unsigned long flags);
#define spin_lock_irqsave(lock, flags) __lock_acquire_irq(lock, &(flags))
#define spin_unlock_irqrestore(lock, flags) __lock_release_irq(lock, flags)

spinlock_t queue_lock;
int queue_item, queue_ready;

void queue_put(int item) {
  unsigned long flags;
  spin_lock_irqsave(&queue_lock, flags);
  WRITE_ONCE(queue_item, item);
  smp_wmb();
  WRITE_ONCE(queue_ready, 1);
  spin_unlock_irqrestore(&queue_lock, flags);
}

int queue_get(void) {
  unsigned long flags;
  int item = -1;
  spin_lock_irqsave(&queue_lock, flags);
  if (READ_ONCE(queue_ready))
    item = READ_ONCE(queue_item);
  spin_unlock_irqrestore(&queue_lock, flags);
  return item;
}
