/* The setup of an analysis run: what every rule reads, computed once. */
#include "analysis/analysis.h"

#include <stdlib.h>

void bp_mark_paired(bp_analysis *analysis, uint32_t barrier) {
  if (barrier != BP_NO_EVENT)
    analysis->paired[barrier] = true;
}

void bp_analysis_begin(bp_analysis *analysis, const bp_engine *engine, const bp_options *options) {
  *analysis = (bp_analysis){.engine = engine, .options = options};
  bp_vec_init(&analysis->orderings, sizeof(bp_ordering));
  bp_vec_init(&analysis->barrier_pairs, sizeof(bp_barrier_pair));
  bp_vec_init(&analysis->candidates, sizeof(bp_finding));
  bp_vec_init(&analysis->merged_pairings, sizeof(uint32_t));
  analysis->paired = calloc(bp_event_count(engine) + 1, sizeof *analysis->paired);
  if (!analysis->paired)
    abort();
  bp_compute_threads(analysis);
  bp_compute_concurrency(analysis);
  bp_find_counters(analysis);
  analysis->ordering_calls = bp_find_ordering_calls(engine);
  bp_collect_program_orderings(analysis);
  bp_compute_held_locks(analysis);
}

void bp_analysis_end(bp_analysis *analysis) {
  bp_vec_free(&analysis->orderings);
  bp_vec_free(&analysis->barrier_pairs);
  bp_free_pairs(analysis);
  free(analysis->held);
  bp_free_threads(analysis);
  bp_free_concurrency(analysis);
  free(analysis->paired);
  free(analysis->ordering_calls);
  free(analysis->counters);
  free(analysis->reference_counts);
  bp_vec_free(&analysis->merged_pairings);
  bp_free_candidate_index(analysis);
}

bool bp_whole_program(const bp_analysis *analysis) {
  return !analysis->options->disabled[BP_RULE_UNPAIRED_BARRIER];
}

/* The article: "Scenario 0 is so extreme that we will ignore it". No
 * sample of the kernel's findings held an IRIW that its code relies on
 * (docs/precision.md). */
bool bp_scenario_reported(const bp_analysis *analysis, int scenario) {
  return scenario != 0 || analysis->options->beta;
}
