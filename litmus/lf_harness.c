/* The harness of a converted litmus file, compiled with it at run time by
 * barrierpair-litmus (lf_runner.c). As the scenario runner does (run.c):
 * one thread per P<n>, each pinned to a CPU of its own while there are
 * enough; the threads meet at a barrier (spin_barrier.c), run their P<n>
 * over a batch of instances after a random stagger, meet again, and thread 0
 * counts the final states and resets the slots.
 *
 *   <program> <iterations> <seconds> <batch> <stride> <stagger> <pin 0|1>
 *
 * prints `columns ...`, one `state <count> <value>...` line per distinct
 * final state (a pointer as the name of its variable), and `time ...`. */
#define _GNU_SOURCE
#include "affinity.h"
#include "lf_runtime.h"
#include "spin_barrier.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_STATES 65536

struct state_table {
  size_t count;
  long *keys; /* MAX_STATES * column_count */
  uint64_t *counts;
  bool *used;
};

static struct state_table table;
static struct spin_barrier start, finish;
static size_t instances, stride;
static unsigned stagger_limit;
static unsigned delay[LF_RUN_MAX_THREADS];
static atomic_bool stop;
static int cpu_of_thread[LF_RUN_MAX_THREADS];
static bool pinned = true;

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

static void record(const long *state) {
  size_t n = (size_t)lf_program.column_count;
  uint64_t hash = 1469598103934665603ull;
  for (size_t c = 0; c < n; c++)
    hash = (hash ^ (uint64_t)state[c]) * 1099511628211ull;
  for (size_t slot = hash % MAX_STATES;; slot = (slot + 1) % MAX_STATES) {
    if (!table.used[slot]) {
      if (table.count + 1 >= MAX_STATES) {
        fprintf(stderr, "more than %d distinct final states\n", MAX_STATES);
        exit(2);
      }
      table.used[slot] = true;
      memcpy(table.keys + slot * n, state, n * sizeof *state);
      table.counts[slot] = 1;
      table.count++;
      return;
    }
    if (memcmp(table.keys + slot * n, state, n * sizeof *state) == 0) {
      table.counts[slot]++;
      return;
    }
  }
}

static void run_batches(int thread) {
  const lf_thread_body body = lf_program.threads[thread];
  for (;;) {
    spin_barrier_wait(&start);
    if (atomic_load_explicit(&stop, memory_order_relaxed))
      return;
    for (unsigned spin = delay[thread]; spin > 0; spin--)
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
    for (size_t k = 0; k < instances; k++)
      body(k * stride, k);
    spin_barrier_wait(&finish);
  }
}

static void *worker(void *argument) {
  int thread = (int)(intptr_t)argument;
  if (cpu_of_thread[thread] >= 0 && !affinity_pin_self(cpu_of_thread[thread]))
    pinned = false;
  run_batches(thread);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s iterations seconds batch stride stagger pin\n", argv[0]);
    return 2;
  }
  uint64_t iterations = strtoull(argv[1], NULL, 10);
  double seconds = strtod(argv[2], NULL);
  size_t batch = strtoul(argv[3], NULL, 10);
  stride = strtoul(argv[4], NULL, 10);
  stagger_limit = (unsigned)strtoul(argv[5], NULL, 10);
  bool pin = atoi(argv[6]) != 0;
  if (batch < 1 || batch > LF_MAX_INSTANCES || stride < 1 || stride > LF_MAX_STRIDE)
    return 2;
  size_t n = (size_t)lf_program.column_count;
  table.keys = calloc(MAX_STATES * (n ? n : 1), sizeof *table.keys);
  table.counts = calloc(MAX_STATES, sizeof *table.counts);
  table.used = calloc(MAX_STATES, sizeof *table.used);
  if (!table.keys || !table.counts || !table.used)
    return 2;

  struct cpu_list cpus;
  affinity_available(&cpus);
  int threads = lf_program.thread_count;
  bool enough = cpus.count >= threads;
  for (int t = 0; t < threads; t++)
    cpu_of_thread[t] = pin && enough ? cpus.cpus[t] : -1;
  spin_barrier_init(&start, (unsigned)threads, !enough);
  spin_barrier_init(&finish, (unsigned)threads, !enough);
  if (cpu_of_thread[0] >= 0 && !affinity_pin_self(cpu_of_thread[0]))
    pinned = false;
  for (size_t k = 0; k < LF_MAX_INSTANCES; k++)
    lf_program.init(k * stride);

  pthread_t workers[LF_RUN_MAX_THREADS];
  for (int t = 1; t < threads; t++)
    if (pthread_create(&workers[t], NULL, worker, (void *)(intptr_t)t) != 0) {
      fprintf(stderr, "cannot start a thread\n");
      return 2;
    }
  uint64_t random_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)time(NULL);
  uint64_t done = 0;
  double began = now();
  long state[LF_RUN_MAX_COLUMNS];
  for (;;) {
    uint64_t left = iterations ? iterations - done : batch;
    instances = left < batch ? (size_t)left : batch;
    for (int t = 0; t < threads; t++) {
      random_state ^= random_state << 13, random_state ^= random_state >> 7,
          random_state ^= random_state << 17;
      delay[t] = stagger_limit ? (unsigned)(random_state % (stagger_limit + 1u)) : 0;
    }
    spin_barrier_wait(&start);
    for (unsigned spin = delay[0]; spin > 0; spin--)
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
    for (size_t k = 0; k < instances; k++)
      lf_program.threads[0](k * stride, k);
    spin_barrier_wait(&finish);
    for (size_t k = 0; k < instances; k++) {
      lf_program.state(k * stride, k, state);
      record(state);
      lf_program.init(k * stride);
    }
    done += instances;
    if ((iterations && done >= iterations) || (seconds > 0 && now() - began >= seconds))
      break;
  }
  double elapsed = now() - began;
  atomic_store(&stop, true);
  spin_barrier_wait(&start);
  for (int t = 1; t < threads; t++)
    pthread_join(workers[t], NULL);

  printf("columns");
  for (size_t c = 0; c < n; c++)
    printf(" %s", lf_program.columns[c]);
  printf("\n");
  for (size_t slot = 0; slot < MAX_STATES; slot++) {
    if (!table.used[slot])
      continue;
    printf("state %llu", (unsigned long long)table.counts[slot]);
    for (size_t c = 0; c < n; c++) {
      long value = table.keys[slot * n + c];
      const char *pointee = NULL;
      for (long v = 0; lf_program.variables[v]; v++)
        if (value == LF_RUN_POINTER_TAG + v)
          pointee = lf_program.variables[v];
      if (pointee)
        printf(" &%s", pointee);
      else
        printf(" %ld", value);
    }
    printf("\n");
  }
  printf("time %.6f runs %llu threads %d cpus %d pinned %d\n", elapsed, (unsigned long long)done,
         threads, cpus.count, pin && enough && pinned ? 1 : 0);
  return 0;
}
