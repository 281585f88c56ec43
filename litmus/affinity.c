/* See affinity.h. Linux-specific: sched_getaffinity and
 * pthread_setaffinity_np are GNU extensions. */
#define _GNU_SOURCE
#include "affinity.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

void affinity_available(struct cpu_list *list) {
  cpu_set_t set;
  list->count = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE && list->count < AFFINITY_MAX_CPUS; cpu++)
      if (CPU_ISSET(cpu, &set))
        list->cpus[list->count++] = cpu;
  }
  if (list->count == 0) { /* no mask: assume the online CPUs, unpinnable */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (int cpu = 0; cpu < online && cpu < AFFINITY_MAX_CPUS; cpu++)
      list->cpus[list->count++] = cpu;
  }
}

bool affinity_pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

void affinity_unpin_self(const struct cpu_list *list) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int i = 0; i < list->count; i++)
    CPU_SET(list->cpus[i], &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
