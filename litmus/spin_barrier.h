/* A sense-reversing barrier for the test threads. They meet twice per batch
 * of instances, so it must be cheap when every thread has a CPU of its own
 * (spin) and must not stall when threads share CPUs (then it yields, so the
 * thread being waited for can run). */
#ifndef BARRIERPAIR_LITMUS_SPIN_BARRIER_H
#define BARRIERPAIR_LITMUS_SPIN_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>

struct spin_barrier {
  _Alignas(64) atomic_uint arrived;
  _Alignas(64) atomic_uint generation;
  unsigned parties;
  bool yield_at_once; /* more threads than CPUs: spinning only wastes the CPU */
};

void spin_barrier_init(struct spin_barrier *barrier, unsigned parties, bool yield_at_once);
void spin_barrier_wait(struct spin_barrier *barrier);

#endif
