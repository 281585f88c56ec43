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
#endif
