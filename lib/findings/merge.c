/* Merging the candidates of every rule into findings: one per rule and
 * place, the other partners counted, sorted by place. */
#include "findings/findings.h"

#include <stdlib.h>

static const bp_location *location_of(const bp_engine *engine, uint32_t event) {
  return &bp_event_get(engine, event)->location;
}

static const bp_engine *sorting_engine; /* qsort has no context argument in C11 */

static int compare_candidates(const void *left, const void *right) {
  const bp_finding *a = left, *b = right;
  const bp_location *la = location_of(sorting_engine, a->at);
  const bp_location *lb = location_of(sorting_engine, b->at);
  BP_COMPARE(la->file, lb->file);
  BP_COMPARE(la->line, lb->line);
  BP_COMPARE(la->column, lb->column);
  BP_COMPARE(a->at, b->at);
  BP_COMPARE(a->rule, b->rule);
  /* a finding with a partner says more than a barrier's kind alone */
  BP_COMPARE(a->partner.function == BP_NO_FUNCTION, b->partner.function == BP_NO_FUNCTION);
  BP_COMPARE(a->side.first, b->side.first);
  BP_COMPARE(a->partner.function, b->partner.function);
  BP_COMPARE(a->partner.first, b->partner.first);
  BP_COMPARE(a->partner.second, b->partner.second);
  return 0;
}

/* One access written once may be several events (a macro that loads its
 * argument twice): one place for missing-access-once. */
static bool same_place(const bp_engine *engine, const bp_finding *a, const bp_finding *b) {
  if (a->rule != b->rule)
    return false;
  if (a->at == b->at)
    return true;
  if (a->rule != BP_RULE_MISSING_ACCESS_ONCE)
    return false;
  const bp_event *ea = bp_event_get(engine, a->at), *eb = bp_event_get(engine, b->at);
  return ea->location.file == eb->location.file && ea->location.line == eb->location.line &&
         ea->location.column == eb->location.column && ea->object == eb->object &&
         ea->kind == eb->kind;
}

/* One finding per rule and place; the other partners are counted. */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings) {
  bp_vec *candidates = &analysis->candidates;
  sorting_engine = analysis->engine;
  if (candidates->count)
    qsort(candidates->items, candidates->count, sizeof(bp_finding), compare_candidates);
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
