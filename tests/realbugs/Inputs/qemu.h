/* Stand-ins for the QEMU include/qemu/atomic.h names the reductions use, as
 * QEMU defines them over the __atomic builtins on x86 (where a
 * read-modify-write is a locked instruction, so smp_mb__after_rmw() is only a
 * compiler barrier). What each orders comes from the kernel names barrierpair
 * knows and from share/primitives/qemu.def. */
#ifndef REALBUGS_QEMU_H
#define REALBUGS_QEMU_H
#include <stdbool.h>

#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_mb_acquire() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_mb__after_rmw() barrier()

#define qatomic_read(ptr) __atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_set(ptr, i) __atomic_store_n(ptr, i, __ATOMIC_RELAXED)
#define qatomic_load_acquire(ptr) __atomic_load_n(ptr, __ATOMIC_ACQUIRE)
#define qatomic_xchg(ptr, i) __atomic_exchange_n(ptr, i, __ATOMIC_SEQ_CST)
#define qatomic_or(ptr, n) ((void)__atomic_fetch_or(ptr, n, __ATOMIC_SEQ_CST))
#endif
