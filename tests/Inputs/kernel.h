/* Linux-kernel-style primitives, as a user-space project defines them. */
#ifndef TEST_KERNEL_H
#define TEST_KERNEL_H
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)                                                                           \
  do {                                                                                             \
    *(volatile __typeof__(x) *)&(x) = (v);                                                         \
  } while (0)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
static inline void __kcsan_disable_current(void) {}
static inline void __kcsan_enable_current(void) {}
/* a race the code means: no marking and no ordering asked of `expr` */
#define data_race(expr)                                                                            \
  ({                                                                                               \
    __typeof__(({ expr; })) __v = ({                                                               \
      __kcsan_disable_current();                                                                   \
      expr;                                                                                        \
    });                                                                                            \
    __kcsan_enable_current();                                                                      \
    __v;                                                                                           \
  })
#endif
