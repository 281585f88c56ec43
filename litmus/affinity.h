/* Which CPUs the runner may use, and pinning a thread to one of them. */
#ifndef BARRIERPAIR_LITMUS_AFFINITY_H
#define BARRIERPAIR_LITMUS_AFFINITY_H

#include <stdbool.h>

#define AFFINITY_MAX_CPUS 1024

struct cpu_list {
  int count;
  int cpus[AFFINITY_MAX_CPUS];
};

/* The CPUs this process may run on (its affinity mask, so `taskset` works). */
void affinity_available(struct cpu_list *list);
/* Pins the calling thread to `cpu`; false if the system refused. */
bool affinity_pin_self(int cpu);
/* Lets the calling thread run on every CPU of `list` again. */
void affinity_unpin_self(const struct cpu_list *list);

#endif
