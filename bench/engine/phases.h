/* The analysis in its phases, each timed, with the peak memory after it:
 * the steps of bp_analyze (lib/analyze.c) in its order, then what a front end
 * does with every finding (message, notes, fix-it). */
#ifndef BENCH_ENGINE_PHASES_H
#define BENCH_ENGINE_PHASES_H

#include "barrierpair/barrierpair.h"

typedef enum {
  PHASE_BUILD,
  PHASE_ORDERINGS,
  PHASE_PAIRING,
  PHASE_CHAINS,
  PHASE_UNPAIRED,
  PHASE_MERGE,
  PHASE_REPORTING,
  PHASE_COUNT
} phase;

typedef struct {
  double seconds[PHASE_COUNT];
  long peak_kib[PHASE_COUNT]; /* the process's peak RSS when the phase ended */
  size_t orderings, findings;
} phase_results;

const char *phase_name(phase p);
double phase_clock(void);
long phase_peak_kib(void);

/* Runs every phase after PHASE_BUILD on `engine`. */
void phases_run(bp_engine *engine, phase_results *results);

#endif
