/* See run.h.
 *
 * Each batch: every thread waits at the start barrier, runs its CPU's code
 * on instances 0..n-1 (slot k*stride of x and y), and waits at the finish
 * barrier. Thread 0 (the caller, playing CPU 0) then counts the outcomes,
 * resets the slots and decides whether to go on, while the others wait at
 * the next start barrier. So threads meet twice per batch, not per
 * instance, and the instances of a batch race freely. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "run.h"

#include "shared_memory.h"
#include "spin_barrier.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <urcu/compiler.h>

struct batch_run {
  const struct litmus_test *test;
  const struct run_options *options;
  litmus_thread bodies[LITMUS_MAX_THREADS];
  int cpu_of_thread[LITMUS_MAX_THREADS]; /* -1: not pinned */
  int thread_count;
  struct spin_barrier start, finish;
  size_t instances;                   /* in the coming batch */
  unsigned delay[LITMUS_MAX_THREADS]; /* spins before the coming batch */
  uint64_t random_state;
  atomic_bool stop;
  atomic_bool pin_failed;
  atomic_int go; /* the workers wait for it: were all threads started? */
};

enum { GO_WAIT, GO_RUN, GO_ABANDON };

/* Each thread's registers for the batch, written only by that thread. */
static _Alignas(64) struct litmus_registers registers[LITMUS_MAX_THREADS][LITMUS_MAX_INSTANCES];

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

static void run_batches(struct batch_run *run, int thread,
                        void (*after_batch)(struct batch_run *)) {
  const litmus_thread body = run->bodies[thread];
  struct litmus_registers *out = registers[thread];
  const size_t stride = run->options->stride;
  for (;;) {
    spin_barrier_wait(&run->start);
    if (atomic_load_explicit(&run->stop, memory_order_relaxed))
      return;
    const size_t instances = run->instances;
    for (unsigned spin = run->delay[thread]; spin > 0; spin--)
      cmm_barrier();
    for (size_t k = 0; k < instances; k++)
      out[k] = body(k * stride);
    spin_barrier_wait(&run->finish);
    if (after_batch)
      after_batch(run);
  }
}

struct worker {
  struct batch_run *run;
  int thread;
};

static void *worker_main(void *argument) {
  struct worker *worker = argument;
  struct batch_run *run = worker->run;
  int cpu = run->cpu_of_thread[worker->thread];
  if (cpu >= 0 && !affinity_pin_self(cpu))
    atomic_store(&run->pin_failed, true);
  int go;
  while ((go = atomic_load(&run->go)) == GO_WAIT)
    sched_yield();
  if (go == GO_RUN)
    run_batches(run, worker->thread, NULL);
  return NULL;
}

/* The tally, owned by thread 0 between batches. */
static struct {
  struct run_result *result;
  bool forbidden[OUTCOME_STATES];
  double started;
} tally;

static void reset_slots(size_t instances, size_t stride) {
  for (size_t k = 0; k < instances; k++) {
    x[k * stride] = 0;
    y[k * stride] = 0;
  }
}

/* xorshift64: reproducible and cheap. */
static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Each thread waits a random few hundred cycles before each batch. The
 * thread that releases the start barrier would otherwise always lead by
 * the same distance, and the instances it races on would always meet the
 * same way; varying the lead makes the threads hit the same instance at
 * the same time in some batches (with it, this x86 machine shows every
 * two-thread reordering x86-TSO allows within 10^6 runs; without it, a
 * third of them never showed). */
static void choose_delays(struct batch_run *run) {
  const unsigned stagger = run->options->stagger;
  for (int t = 0; t < run->thread_count; t++)
    run->delay[t] = stagger ? (unsigned)(next_random(&run->random_state) % stagger) : 0;
}

static void count_batch(struct batch_run *run) {
  const struct litmus_test *test = run->test;
  struct run_result *result = tally.result;
  const size_t stride = run->options->stride;
  for (size_t k = 0; k < run->instances; k++) {
    struct litmus_outcome outcome = {.x = x[k * stride], .y = y[k * stride]};
    for (int t = 0; t < run->thread_count; t++)
      for (int i = 0; i < LITMUS_REGISTERS; i++)
        outcome.r[i] += registers[t][k].r[i];
    outcome_mask(test, &outcome);
    unsigned state = outcome_encode(&outcome);
    result->counts[state]++;
    if (tally.forbidden[state] && result->witnesses++ == 0)
      result->first_witness_iteration = result->iterations + k + 1;
  }
  result->iterations += run->instances;
  double elapsed = now() - tally.started;
  if (result->witnesses && result->first_witness_seconds == 0)
    result->first_witness_seconds = elapsed;
  result->seconds = elapsed;

  const struct run_options *options = run->options;
  uint64_t remaining = options->iterations ? options->iterations - result->iterations : UINT64_MAX;
  bool done = remaining == 0 || (options->seconds > 0 && elapsed >= options->seconds) ||
              (options->stop_at_first_witness && result->witnesses);
  reset_slots(run->instances, stride);
  choose_delays(run);
  run->instances = remaining < options->batch ? (size_t)remaining : options->batch;
  atomic_store_explicit(&run->stop, done, memory_order_relaxed);
}

static void prepare(struct batch_run *run, const struct litmus_test *test,
                    const struct run_options *options, struct run_result *result) {
  memset(run, 0, sizeof *run);
  memset(result, 0, sizeof *result);
  run->test = test;
  run->options = options;
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++)
    if (test->threads[cpu])
      run->bodies[run->thread_count++] = test->threads[cpu];

  const struct cpu_list *cpus = options->cpus;
  result->threads = run->thread_count;
  result->cpus = cpus->count;
  result->shared_cpus = run->thread_count > cpus->count;
  for (int t = 0; t < run->thread_count; t++)
    run->cpu_of_thread[t] = options->pin ? cpus->cpus[t % cpus->count] : -1;

  /* Threads that share a CPU must yield at once in the barrier, or the one
   * spinning keeps the one it waits for off the CPU for a whole time slice. */
  spin_barrier_init(&run->start, (unsigned)run->thread_count, result->shared_cpus);
  spin_barrier_init(&run->finish, (unsigned)run->thread_count, result->shared_cpus);
  run->instances = options->iterations && options->iterations < options->batch
                       ? (size_t)options->iterations
                       : options->batch;
  atomic_init(&run->stop, false);
  run->random_state = 0x9e3779b97f4a7c15u;
  choose_delays(run);
  atomic_init(&run->pin_failed, false);
  atomic_init(&run->go, GO_WAIT);

  tally.result = result;
  for (unsigned state = 0; state < OUTCOME_STATES; state++) {
    struct litmus_outcome outcome;
    outcome_decode(state, &outcome);
    tally.forbidden[state] = test->forbidden(&outcome);
  }
  reset_slots(options->batch, options->stride);
}

bool run_test(const struct litmus_test *test, const struct run_options *options,
              struct run_result *result) {
  static struct batch_run run;
  pthread_t threads[LITMUS_MAX_THREADS];
  struct worker workers[LITMUS_MAX_THREADS];
  prepare(&run, test, options, result);

  if (run.cpu_of_thread[0] >= 0 && !affinity_pin_self(run.cpu_of_thread[0]))
    atomic_store(&run.pin_failed, true);
  int started = 1;
  for (; started < run.thread_count; started++) {
    workers[started] = (struct worker){&run, started};
    int error = pthread_create(&threads[started], NULL, worker_main, &workers[started]);
    if (error) {
      fprintf(stderr, "barrierpair-litmus: cannot start a thread for %s: %s\n", test->name,
              strerror(error));
      break;
    }
  }
  const bool all_started = started == run.thread_count;
  atomic_store(&run.go, all_started ? GO_RUN : GO_ABANDON);
  tally.started = now();
  if (all_started)
    run_batches(&run, 0, count_batch);
  for (int t = 1; t < started; t++)
    pthread_join(threads[t], NULL);
  if (run.cpu_of_thread[0] >= 0)
    affinity_unpin_self(options->cpus);
  result->pinned = options->pin && !atomic_load(&run.pin_failed);
  return all_started;
}
