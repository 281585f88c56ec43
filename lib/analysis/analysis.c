/* The setup of an analysis run: what every rule reads, computed once, and
 * the index of the orderings by their objects. */
#include "analysis/analysis.h"

#include <stdlib.h>

static int compare_by_objects(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

/* Every function's orderings, sorted as `orderings` says. */
static void collect_program_orderings(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    if (bp_may_run_concurrently(analysis, f))
      bp_collect_orderings(engine, f, &analysis->orderings);
  }
  if (analysis->orderings.count)
    qsort(analysis->orderings.items, analysis->orderings.count, sizeof(bp_ordering),
          compare_by_objects);
}

size_t bp_orderings_between(const bp_analysis *analysis, uint32_t first_object,
                            uint32_t second_object, size_t *begin) {
  const bp_vec *orderings = &analysis->orderings;
  size_t low = 0, high = orderings->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    const bp_ordering *o = bp_vec_at(orderings, middle);
    if (o->first_object < first_object ||
        (o->first_object == first_object && o->second_object < second_object))
      low = middle + 1;
    else
      high = middle;
  }
  *begin = low;
  size_t end = low;
  while (end < orderings->count) {
    const bp_ordering *o = bp_vec_at(orderings, end);
    if (o->first_object != first_object || o->second_object != second_object)
      break;
    end++;
  }
  return end;
}

void bp_mark_paired(bp_analysis *analysis, uint32_t barrier) {
  if (barrier != BP_NO_EVENT)
    analysis->paired[barrier] = true;
}

void bp_analysis_begin(bp_analysis *analysis, const bp_engine *engine, const bp_options *options) {
  *analysis = (bp_analysis){.engine = engine, .options = options};
  bp_vec_init(&analysis->orderings, sizeof(bp_ordering));
  bp_vec_init(&analysis->barrier_pairs, sizeof(bp_barrier_pair));
  bp_vec_init(&analysis->candidates, sizeof(bp_finding));
  analysis->paired = calloc(bp_event_count(engine) + 1, sizeof *analysis->paired);
  if (!analysis->paired)
    abort();
  bp_compute_threads(analysis);
  bp_compute_concurrency(analysis);
  collect_program_orderings(analysis);
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
}

bool bp_whole_program(const bp_analysis *analysis) {
  return !analysis->options->disabled[BP_RULE_UNPAIRED_BARRIER];
}
