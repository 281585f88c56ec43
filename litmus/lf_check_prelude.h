/* The kernel spellings of herd7's C litmus tests, for the analyzer: each
 * expands to a name of the primitive table (include/barrierpair/primitives.def)
 * or to the GCC builtin with the ordering the Linux-kernel memory model gives
 * it. barrierpair writes this file next to every converted litmus test. */
#ifndef BARRIERPAIR_LITMUS_KERNEL_H
#define BARRIERPAIR_LITMUS_KERNEL_H

typedef int atomic_t;
typedef int spinlock_t;

#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_mb__after_spinlock() smp_mb()

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)                                                                           \
  do {                                                                                             \
    *(volatile __typeof__(x) *)&(x) = (v);                                                         \
  } while (0)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), v)
#define rcu_read_lock() barrier()
#define rcu_read_unlock() barrier()

#define xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define xchg_relaxed(p, v) __atomic_exchange_n(p, v, __ATOMIC_RELAXED)
#define xchg_acquire(p, v) __atomic_exchange_n(p, v, __ATOMIC_ACQUIRE)
#define xchg_release(p, v) __atomic_exchange_n(p, v, __ATOMIC_RELEASE)
#define bp_cmpxchg(p, o, n, order)                                                                 \
  __extension__({                                                                                  \
    __typeof__(*(p)) bp_old = (o);                                                                 \
    __atomic_compare_exchange_n(p, &bp_old, n, 0, order, __ATOMIC_RELAXED);                        \
    bp_old;                                                                                        \
  })
#define cmpxchg(p, o, n) bp_cmpxchg(p, o, n, __ATOMIC_SEQ_CST)
#define cmpxchg_relaxed(p, o, n) bp_cmpxchg(p, o, n, __ATOMIC_RELAXED)
#define cmpxchg_acquire(p, o, n) bp_cmpxchg(p, o, n, __ATOMIC_ACQUIRE)
#define cmpxchg_release(p, o, n) bp_cmpxchg(p, o, n, __ATOMIC_RELEASE)

void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);

#define atomic_read(v) READ_ONCE(*(v))
#define atomic_read_acquire(v) smp_load_acquire(v)
#define atomic_set(v, i) WRITE_ONCE(*(v), i)
#define atomic_set_release(v, i) smp_store_release(v, i)
#define atomic_add(i, v) ((void)__atomic_fetch_add(v, i, __ATOMIC_RELAXED))
#define atomic_sub(i, v) ((void)__atomic_fetch_sub(v, i, __ATOMIC_RELAXED))
#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)
#define atomic_add_return(i, v) __atomic_add_fetch(v, i, __ATOMIC_SEQ_CST)
#define atomic_add_return_relaxed(i, v) __atomic_add_fetch(v, i, __ATOMIC_RELAXED)
#define atomic_add_return_acquire(i, v) __atomic_add_fetch(v, i, __ATOMIC_ACQUIRE)
#define atomic_add_return_release(i, v) __atomic_add_fetch(v, i, __ATOMIC_RELEASE)
#define atomic_sub_return(i, v) __atomic_sub_fetch(v, i, __ATOMIC_SEQ_CST)
#define atomic_sub_return_relaxed(i, v) __atomic_sub_fetch(v, i, __ATOMIC_RELAXED)
#define atomic_sub_return_acquire(i, v) __atomic_sub_fetch(v, i, __ATOMIC_ACQUIRE)
#define atomic_sub_return_release(i, v) __atomic_sub_fetch(v, i, __ATOMIC_RELEASE)
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_inc_return_relaxed(v) atomic_add_return_relaxed(1, v)
#define atomic_inc_return_acquire(v) atomic_add_return_acquire(1, v)
#define atomic_inc_return_release(v) atomic_add_return_release(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_dec_return_relaxed(v) atomic_sub_return_relaxed(1, v)
#define atomic_dec_return_acquire(v) atomic_sub_return_acquire(1, v)
#define atomic_dec_return_release(v) atomic_sub_return_release(1, v)
#define atomic_fetch_add(i, v) __atomic_fetch_add(v, i, __ATOMIC_SEQ_CST)
#define atomic_fetch_add_relaxed(i, v) __atomic_fetch_add(v, i, __ATOMIC_RELAXED)
#define atomic_fetch_add_acquire(i, v) __atomic_fetch_add(v, i, __ATOMIC_ACQUIRE)
#define atomic_fetch_add_release(i, v) __atomic_fetch_add(v, i, __ATOMIC_RELEASE)
#define atomic_xchg(v, i) xchg(v, i)
#define atomic_xchg_relaxed(v, i) xchg_relaxed(v, i)
#define atomic_xchg_acquire(v, i) xchg_acquire(v, i)
#define atomic_xchg_release(v, i) xchg_release(v, i)
#define atomic_cmpxchg(v, o, n) cmpxchg(v, o, n)
#define atomic_cmpxchg_relaxed(v, o, n) cmpxchg_relaxed(v, o, n)
#define atomic_cmpxchg_acquire(v, o, n) cmpxchg_acquire(v, o, n)
#define atomic_cmpxchg_release(v, o, n) cmpxchg_release(v, o, n)

#endif
