/* Merging the candidates of every rule into findings: one per rule and
 * place, the other partners counted, sorted by place. */
#include "findings/findings.h"

#include <stdlib.h>
#include <string.h>

static const bp_engine *sorting_engine; /* qsort has no context argument in C11 */

/* Places and names, never ids: ids follow the order in which a front end
 * met files and functions, and `link` meets them in another order than
 * `check`; the same program must give the same findings. */
static int compare_functions(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (a == b)
    return 0;
  if (a == BP_NO_FUNCTION || b == BP_NO_FUNCTION)
    return a == BP_NO_FUNCTION ? 1 : -1;
  return strcmp(bp_function_name(engine, a), bp_function_name(engine, b));
}

/* Per event, its rank among its function's events: with the function's
 * name, it tells events apart the same way in every front end. */
static uint32_t *sorting_ranks;

/* Events by place, then function and rank: one event compares equal only
 * to itself, whatever the ids. */
static int compare_places(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (a == b)
    return 0;
  if (a == BP_NO_EVENT || b == BP_NO_EVENT)
    return a == BP_NO_EVENT ? -1 : 1;
  int order = bp_compare_locations(engine, a, b);
  if (order)
    return order;
  if ((order = compare_functions(engine, bp_event_get(engine, a)->function,
                                 bp_event_get(engine, b)->function)))
    return order;
  BP_COMPARE(sorting_ranks[a], sorting_ranks[b]);
  return 0;
}

static uint32_t *rank_events(const bp_engine *engine) {
  size_t count = bp_event_count(engine);
  uint32_t *ranks = malloc((count + 1) * sizeof *ranks);
  if (!ranks)
    abort();
  for (uint32_t id = 0; id < count; id++) {
    uint32_t function = bp_event_get(engine, id)->function;
    ranks[id] =
        id > 0 && bp_event_get(engine, id - 1)->function == function ? ranks[id - 1] + 1 : 0;
  }
  return ranks;
}

static int compare_candidates(const void *left, const void *right) {
  const bp_finding *a = left, *b = right;
  const bp_engine *engine = sorting_engine;
  int order = bp_compare_locations(engine, a->at, b->at);
  if (order)
    return order;
  BP_COMPARE(a->rule, b->rule);
  if (a->rule == BP_RULE_MISSING_ACCESS_ONCE) {
    const bp_event *ea = bp_event_get(engine, a->at), *eb = bp_event_get(engine, b->at);
    if ((order =
             strcmp(bp_object_display(engine, ea->object), bp_object_display(engine, eb->object))))
      return order;
    BP_COMPARE(ea->kind, eb->kind);
  }
  if ((order = compare_places(engine, a->at, b->at)))
    return order;
  /* a finding with a partner says more than a barrier's kind alone */
  BP_COMPARE(a->partner.function == BP_NO_FUNCTION, b->partner.function == BP_NO_FUNCTION);
  if ((order = compare_places(engine, a->side.first, b->side.first)) ||
      (order = compare_functions(engine, a->partner.function, b->partner.function)) ||
      (order = compare_places(engine, a->partner.first, b->partner.first)) ||
      (order = compare_places(engine, a->partner.second, b->partner.second)))
    return order;
  BP_COMPARE(a->at, b->at);
  BP_COMPARE(a->side.first, b->side.first);
  BP_COMPARE(a->partner.first, b->partner.first);
  return 0;
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
  bool located = ea->location.file == eb->location.file && ea->location.line == eb->location.line &&
                 ea->location.column == eb->location.column;
  if (a->rule != BP_RULE_MISSING_ACCESS_ONCE)
    return located;
  return located && ea->object == eb->object && ea->kind == eb->kind;
}

/* One finding per rule and place; the other partners are counted. */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings) {
  bp_vec *candidates = &analysis->candidates;
  sorting_engine = analysis->engine;
  sorting_ranks = rank_events(analysis->engine);
  if (candidates->count)
    qsort(candidates->items, candidates->count, sizeof(bp_finding), compare_candidates);
  free(sorting_ranks);
  sorting_ranks = NULL;
  bp_finding *items = candidates->items;
  size_t unique = 0;
  for (size_t i = 0; i < candidates->count; i++) {
    if (unique && same_place(analysis->engine, &items[unique - 1], &items[i])) {
      if (items[i].partner.function != BP_NO_FUNCTION)
        items[unique - 1].other_pairings++;
      continue;
    }
    items[unique++] = items[i];
  }
  *findings = items;
  return unique;
}
