/* The x86 kernel's atomic bit operations and counters, in the shape its
 * headers give them: inline assembly the compiler does not read, behind
 * always-inline wrappers that choose a form with `__builtin_constant_p()`,
 * whose operand (the tested word itself, in test_bit()) is never read. */
#ifndef TEST_KERNEL_BITOPS_H
#define TEST_KERNEL_BITOPS_H
#include "kernel.h"

#define LOCK_PREFIX                                                                                \
  ".pushsection .smp_locks,\"a\"\n.balign 4\n.long 671f - .\n.popsection\n671:\n\tlock; "
#define BYTE_OPERAND(nr, addr) "+m"(*(volatile char *)((void *)(addr) + ((nr) >> 3)))
#define WORD_OPERAND(addr) "m"(*(volatile long *)(addr))
#define BYTE_MASK(nr) (1 << ((nr)&7))

#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()

static inline __attribute__((always_inline)) void arch_set_bit(long nr,
                                                               volatile unsigned long *addr) {
  if (__builtin_constant_p(nr))
    asm volatile(LOCK_PREFIX "orb %b1,%0"
                 : BYTE_OPERAND(nr, addr)
                 : "iq"(BYTE_MASK(nr))
                 : "memory");
  else
    asm volatile(LOCK_PREFIX "btsq %1,%0" : : WORD_OPERAND(addr), "Ir"(nr) : "memory"); // #set-bit
}

static inline __attribute__((always_inline)) void arch_clear_bit(long nr,
                                                                 volatile unsigned long *addr) {
  if (__builtin_constant_p(nr))
    asm volatile(LOCK_PREFIX "andb %b1,%0" : BYTE_OPERAND(nr, addr) : "iq"(~BYTE_MASK(nr)));
  else
    asm volatile(LOCK_PREFIX "btrq %1,%0" : : WORD_OPERAND(addr), "Ir"(nr) : "memory"); // #clear-bit
}

/* x86's release is its store order: a compiler barrier before the clear */
static inline __attribute__((always_inline)) void
arch_clear_bit_unlock(long nr, volatile unsigned long *addr) {
  barrier();
  arch_clear_bit(nr, addr);
}

static inline __attribute__((always_inline)) _Bool
arch_test_and_set_bit(long nr, volatile unsigned long *addr) {
  _Bool was_set;
  asm volatile(LOCK_PREFIX "btsq %2,%1"
               : "=@ccc"(was_set), "+m"(*(volatile long *)addr)
               : "Ir"(nr)
               : "memory");
  return was_set;
}

static inline __attribute__((always_inline)) _Bool
variable_test_bit(long nr, const volatile unsigned long *addr) {
  _Bool set;
  asm volatile("btq %2,%1"
               : "=@ccc"(set)
               : "m"(*(unsigned long *)addr), "Ir"(nr)
               : "memory"); // #test-bit
  return set;
}

static inline __attribute__((always_inline)) _Bool
constant_test_bit(long nr, const volatile unsigned long *addr) {
  return ((1UL << (nr & 63)) & addr[nr >> 6]) != 0;
}

static inline __attribute__((always_inline)) _Bool
arch_test_bit(unsigned long nr, const volatile unsigned long *addr) {
  return __builtin_constant_p(nr) ? constant_test_bit(nr, addr) : variable_test_bit(nr, addr);
}

#define set_bit(nr, addr) arch_set_bit(nr, addr)
#define clear_bit(nr, addr) arch_clear_bit(nr, addr)

static inline void clear_bit_unlock(long nr, volatile unsigned long *addr) {
  arch_clear_bit_unlock(nr, addr);
}

static inline _Bool test_and_set_bit_lock(long nr, volatile unsigned long *addr) {
  return arch_test_and_set_bit(nr, addr);
}

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* a spinning bit lock, handed the word's pointer */
static inline void bit_spin_lock(int bitnum, unsigned long *addr) {
  while (unlikely(test_and_set_bit_lock(bitnum, addr)))
    ;
}

static inline void bit_spin_unlock(int bitnum, unsigned long *addr) {
  clear_bit_unlock(bitnum, addr);
}
/* a plain read, for bitmaps the compiler knows (only after inlining) */
static inline __attribute__((always_inline)) _Bool
const_test_bit(long nr, const volatile unsigned long *addr) {
  const unsigned long *word = (const unsigned long *)addr + (nr >> 6);
  return (*word & (1UL << (nr & 63))) != 0;
}
#define test_bit(nr, addr)                                                                         \
  ((__builtin_constant_p(nr) && __builtin_constant_p(*(const unsigned long *)(addr)))              \
       ? const_test_bit(nr, addr)                                                                  \
       : arch_test_bit(nr, addr))

typedef struct {
  int counter;
} atomic_t;

static inline __attribute__((always_inline)) void arch_atomic_or(int mask, atomic_t *v) {
  asm volatile(LOCK_PREFIX "orl %1,%0" : "+m"(v->counter) : "ir"(mask) : "memory");
}

static inline __attribute__((always_inline)) int arch_atomic_read(const atomic_t *v) {
  return READ_ONCE(v->counter);
}
#endif
