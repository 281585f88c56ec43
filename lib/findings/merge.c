/* Merging the candidates of every rule into findings: one per rule and
 * place, the other partners counted, sorted by place. */
#include "findings/findings.h"

#include <stdlib.h>
#include <string.h>

static const bp_analysis *sorting_analysis; /* qsort has no context argument in C11 */

static int compare_candidates(const void *left, const void *right) {
  const bp_vec *candidates = &sorting_analysis->candidates;
  return bp_compare_candidates(sorting_analysis, bp_vec_at(candidates, *(const uint32_t *)left),
                               bp_vec_at(candidates, *(const uint32_t *)right));
}

/* One place is one finding per rule: a function's events written at one
 * place (a macro that loads its argument twice, a structure copied field by
 * field, a helper's accesses reported at its call) are one finding, and so
 * are a helper's events lowered into each of its callers and the copies of
 * one function that a file compiled under several names makes (liburcu's
 * flavours); for missing-access-once, one per object and kind, whichever
 * function's. */
static bool same_place(const bp_engine *engine, const bp_finding *a, const bp_finding *b) {
  if (a->rule != b->rule)
    return false;
  if (a->at == b->at)
    return true;
  const bp_event *ea = bp_event_get(engine, a->at), *eb = bp_event_get(engine, b->at);
  bool located = bp_same_location(ea->location, eb->location);
  if (a->rule != BP_RULE_MISSING_ACCESS_ONCE)
    return located;
  return located && ea->object == eb->object && ea->kind == eb->kind;
}

/* One finding per rule and place; the other partners are counted, with
 * those of the candidates the sink merged as they were made. */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings) {
  bp_settle_candidates(analysis);
  const bp_vec *candidates = &analysis->candidates;
  const uint32_t *merged = analysis->merged_pairings.items;
  size_t count = candidates->count;
  uint32_t *order = malloc((count + 1) * sizeof *order);
  bp_finding *items = malloc((count + 1) * sizeof *items);
  if (!order || !items)
    abort();
  for (size_t i = 0; i < count; i++)
    order[i] = (uint32_t)i;
  sorting_analysis = analysis;
  if (count)
    qsort(order, count, sizeof *order, compare_candidates);
  sorting_analysis = NULL;
  size_t unique = 0;
  for (size_t i = 0; i < count; i++) {
    const bp_finding *candidate = bp_vec_at(candidates, order[i]);
    if (unique && same_place(analysis->engine, &items[unique - 1], candidate)) {
      items[unique - 1].other_pairings +=
          (candidate->partner.function != BP_NO_FUNCTION) + merged[order[i]];
      continue;
    }
    items[unique] = *candidate;
    items[unique++].other_pairings += merged[order[i]];
  }
  free(order);
  bp_vec_free(&analysis->candidates);
  *findings = items;
  return unique;
}
