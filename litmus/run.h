/* Runs one litmus test natively: one thread per CPU of the row, many
 * instances per synchronisation (litmus7's approach), every outcome counted. */
#ifndef BARRIERPAIR_LITMUS_RUN_H
#define BARRIERPAIR_LITMUS_RUN_H

#include "affinity.h"
#include "litmus_test.h"
#include "outcome.h"

#include <stdbool.h>
#include <stdint.h>

struct run_options {
  uint64_t iterations; /* stop after this many instances; 0: no limit */
  double seconds;      /* stop after this long; 0: no limit */
  bool stop_at_first_witness;
  bool pin;         /* pin threads to distinct CPUs (while there are enough) */
  size_t batch;     /* instances per synchronisation, <= LITMUS_MAX_INSTANCES */
  size_t stride;    /* slots between instances, <= LITMUS_MAX_STRIDE */
  unsigned stagger; /* each thread spins up to this many times before a batch */
  const struct cpu_list *cpus;
};

struct run_result {
  uint64_t iterations;
  double seconds;
  uint64_t counts[OUTCOME_STATES];
  uint64_t witnesses;               /* instances that ended in the forbidden outcome */
  uint64_t first_witness_iteration; /* 1-based; 0: none */
  double first_witness_seconds;
  int threads;
  int cpus;         /* CPUs available to the run */
  bool pinned;      /* every thread was pinned as asked */
  bool shared_cpus; /* more threads than CPUs */
};

/* Returns false (with a message on stderr) if the threads could not be
 * started. */
bool run_test(const struct litmus_test *test, const struct run_options *options,
              struct run_result *result);

#endif
