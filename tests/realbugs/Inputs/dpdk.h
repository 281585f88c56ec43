/* Stand-ins for the DPDK barrier names the reductions use (rte_atomic.h).
 * On x86 rte_smp_rmb() and rte_smp_wmb() are compiler barriers; what each
 * orders comes from share/primitives/dpdk.def (passed with
 * -fplugin-arg-barrierpair-primitives), never from these bodies. */
#ifndef REALBUGS_DPDK_H
#define REALBUGS_DPDK_H
#include <stdint.h>

static inline void rte_compiler_barrier(void) { __asm__ __volatile__("" ::: "memory"); }
static inline void rte_smp_mb(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void rte_smp_rmb(void) { __asm__ __volatile__("" ::: "memory"); }
static inline void rte_smp_wmb(void) { __asm__ __volatile__("" ::: "memory"); }
static inline void rte_mb(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#endif
