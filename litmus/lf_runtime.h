/* The kernel spellings of herd7's C litmus tests, run natively, and what a
 * generated test gives lf_harness.c. Every shared variable and register is
 * a long (a pointer is held as its address); every marked access is a
 * volatile or __atomic access, so the compiler keeps program order and what
 * the histogram shows is the CPU's doing. The orderings are the
 * Linux-kernel memory model's, or stronger: smp_rmb() and smp_wmb() are
 * acquire and release fences (on x86 both compile to nothing). */
#ifndef BARRIERPAIR_LITMUS_LF_RUNTIME_H
#define BARRIERPAIR_LITMUS_LF_RUNTIME_H

#include <stddef.h>

#define LF_MAX_INSTANCES 4096
#define LF_MAX_STRIDE 16
#define LF_SLOTS (LF_MAX_INSTANCES * LF_MAX_STRIDE)
#define LF_RUN_MAX_THREADS 8
#define LF_RUN_MAX_COLUMNS 128
#define LF_RUN_POINTER_TAG (-(1L << 40)) /* a pointer to variable k: this + k */

typedef void (*lf_thread_body)(size_t i, size_t k); /* slot i of instance k */

struct lf_program {
  const char *name;
  int thread_count;
  lf_thread_body threads[LF_RUN_MAX_THREADS];
  void (*init)(size_t i);                       /* initial values of slot i */
  void (*state)(size_t i, size_t k, long *out); /* the final state, column by column */
  const char *const *columns;                   /* "0:r0", "x" */
  int column_count;
  const char *const *variables; /* names of pointer values */
};
extern const struct lf_program lf_program;

#define LF_P(p) ((volatile long *)(p))
#define LF_V(x) (*(volatile long *)&(x))

#define READ_ONCE(x) LF_V(x)
#define WRITE_ONCE(x, v) ((void)(LF_V(x) = (long)(v)))
#define smp_load_acquire(p) __atomic_load_n(LF_P(p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(LF_P(p), (long)(v), __ATOMIC_RELEASE)
#define rcu_dereference(x) READ_ONCE(x)
#define rcu_assign_pointer(x, v) smp_store_release(&(x), v)
#define rcu_read_lock() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define rcu_read_unlock() __atomic_signal_fence(__ATOMIC_SEQ_CST)

#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_mb__after_spinlock() smp_mb()

/* Value-returning atomics without a suffix are fully ordered: a full fence
 * on each side of a relaxed operation. */
#define LF_FULL(e)                                                                                 \
  __extension__({                                                                                  \
    smp_mb();                                                                                      \
    long lf_value = (e);                                                                           \
    smp_mb();                                                                                      \
    lf_value;                                                                                      \
  })
#define LF_XCHG(p, v, order) __atomic_exchange_n(LF_P(p), (long)(v), order)
#define xchg(p, v) LF_FULL(LF_XCHG(p, v, __ATOMIC_RELAXED))
#define xchg_relaxed(p, v) LF_XCHG(p, v, __ATOMIC_RELAXED)
#define xchg_acquire(p, v) LF_XCHG(p, v, __ATOMIC_ACQUIRE)
#define xchg_release(p, v) LF_XCHG(p, v, __ATOMIC_RELEASE)
#define LF_CMPXCHG(p, o, n, order)                                                                 \
  __extension__({                                                                                  \
    long lf_old = (long)(o);                                                                       \
    __atomic_compare_exchange_n(LF_P(p), &lf_old, (long)(n), 0, order, __ATOMIC_RELAXED);          \
    lf_old;                                                                                        \
  })
#define cmpxchg(p, o, n) LF_FULL(LF_CMPXCHG(p, o, n, __ATOMIC_RELAXED))
#define cmpxchg_relaxed(p, o, n) LF_CMPXCHG(p, o, n, __ATOMIC_RELAXED)
#define cmpxchg_acquire(p, o, n) LF_CMPXCHG(p, o, n, __ATOMIC_ACQUIRE)
#define cmpxchg_release(p, o, n) LF_CMPXCHG(p, o, n, __ATOMIC_RELEASE)

#define spin_lock(l)                                                                               \
  do {                                                                                             \
    while (__atomic_exchange_n(LF_P(l), 1L, __ATOMIC_ACQUIRE))                                     \
      while (LF_V(*LF_P(l)))                                                                       \
        ;                                                                                          \
  } while (0)
#define spin_unlock(l) __atomic_store_n(LF_P(l), 0L, __ATOMIC_RELEASE)

#define atomic_read(v) READ_ONCE(*LF_P(v))
#define atomic_read_acquire(v) smp_load_acquire(v)
#define atomic_set(v, i) WRITE_ONCE(*LF_P(v), i)
#define atomic_set_release(v, i) smp_store_release(v, i)
#define atomic_add(i, v) ((void)__atomic_fetch_add(LF_P(v), (long)(i), __ATOMIC_RELAXED))
#define atomic_sub(i, v) ((void)__atomic_fetch_sub(LF_P(v), (long)(i), __ATOMIC_RELAXED))
#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)
#define LF_ADD(i, v, order) __atomic_add_fetch(LF_P(v), (long)(i), order)
#define atomic_add_return(i, v) LF_FULL(LF_ADD(i, v, __ATOMIC_RELAXED))
#define atomic_add_return_relaxed(i, v) LF_ADD(i, v, __ATOMIC_RELAXED)
#define atomic_add_return_acquire(i, v) LF_ADD(i, v, __ATOMIC_ACQUIRE)
#define atomic_add_return_release(i, v) LF_ADD(i, v, __ATOMIC_RELEASE)
#define atomic_sub_return(i, v) atomic_add_return(-(long)(i), v)
#define atomic_sub_return_relaxed(i, v) atomic_add_return_relaxed(-(long)(i), v)
#define atomic_sub_return_acquire(i, v) atomic_add_return_acquire(-(long)(i), v)
#define atomic_sub_return_release(i, v) atomic_add_return_release(-(long)(i), v)
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_inc_return_relaxed(v) atomic_add_return_relaxed(1, v)
#define atomic_inc_return_acquire(v) atomic_add_return_acquire(1, v)
#define atomic_inc_return_release(v) atomic_add_return_release(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_dec_return_relaxed(v) atomic_sub_return_relaxed(1, v)
#define atomic_dec_return_acquire(v) atomic_sub_return_acquire(1, v)
#define atomic_dec_return_release(v) atomic_sub_return_release(1, v)
#define LF_FETCH_ADD(i, v, order) __atomic_fetch_add(LF_P(v), (long)(i), order)
#define atomic_fetch_add(i, v) LF_FULL(LF_FETCH_ADD(i, v, __ATOMIC_RELAXED))
#define atomic_fetch_add_relaxed(i, v) LF_FETCH_ADD(i, v, __ATOMIC_RELAXED)
#define atomic_fetch_add_acquire(i, v) LF_FETCH_ADD(i, v, __ATOMIC_ACQUIRE)
#define atomic_fetch_add_release(i, v) LF_FETCH_ADD(i, v, __ATOMIC_RELEASE)
#define atomic_xchg(v, i) xchg(v, i)
#define atomic_xchg_relaxed(v, i) xchg_relaxed(v, i)
#define atomic_xchg_acquire(v, i) xchg_acquire(v, i)
#define atomic_xchg_release(v, i) xchg_release(v, i)
#define atomic_cmpxchg(v, o, n) cmpxchg(v, o, n)
#define atomic_cmpxchg_relaxed(v, o, n) cmpxchg_relaxed(v, o, n)
#define atomic_cmpxchg_acquire(v, o, n) cmpxchg_acquire(v, o, n)
#define atomic_cmpxchg_release(v, o, n) cmpxchg_release(v, o, n)

#endif
