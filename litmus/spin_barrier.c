/* See spin_barrier.h. */
#include "spin_barrier.h"

#include <sched.h>
#include <urcu/arch.h>

/* Spins before yielding when every thread has its own CPU: long enough to
 * cover a batch's skew between threads, short enough that a preempted
 * partner (the machine may be busy with other work) costs little. */
#define SPINS_BEFORE_YIELD 20000

void spin_barrier_init(struct spin_barrier *barrier, unsigned parties, bool yield_at_once) {
  atomic_init(&barrier->arrived, 0);
  atomic_init(&barrier->generation, 0);
  barrier->parties = parties;
  barrier->yield_at_once = yield_at_once;
}

void spin_barrier_wait(struct spin_barrier *barrier) {
  unsigned generation = atomic_load_explicit(&barrier->generation, memory_order_acquire);
  if (atomic_fetch_add_explicit(&barrier->arrived, 1, memory_order_acq_rel) + 1 ==
      barrier->parties) {
    atomic_store_explicit(&barrier->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&barrier->generation, generation + 1, memory_order_release);
    return;
  }
  unsigned spins = 0;
  while (atomic_load_explicit(&barrier->generation, memory_order_acquire) == generation) {
    if (barrier->yield_at_once || ++spins > SPINS_BEFORE_YIELD)
      sched_yield();
    else
      caa_cpu_relax();
  }
}
