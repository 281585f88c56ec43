/* unpaired-barrier: a barrier that no function pairs with. For no object X
 * before it and Y after it does a function (another, or this one elsewhere,
 * run by another thread) order Y before X, no
 * cycle runs through it, and no annotation declares its pairing. A barrier
 * with no shared access on one side is left alone: what it orders may be in
 * a caller. */
#include "rules/rules.h"

#include <stdlib.h>

/* The first access of each object among `accesses`, in order. */
static void first_per_object(const bp_engine *engine, bp_vec *accesses) {
  size_t kept = 0;
  uint32_t *ids = accesses->items;
  for (size_t i = 0; i < accesses->count; i++) {
    uint32_t object = bp_event_get(engine, ids[i])->object;
    bool seen = false;
    for (size_t k = 0; k < kept && !seen; k++)
      seen = bp_event_get(engine, ids[k])->object == object;
    if (!seen)
      ids[kept++] = ids[i];
  }
  accesses->count = kept;
}

/* Another function orders `after` before `before`, or this one does in
 * another place: code that several threads run at once (a thread
 * barrier's arrival, a per-CPU routine) pairs with itself. */
static bool mirrored(const bp_analysis *analysis, uint32_t before, uint32_t after) {
  size_t j;
  return bp_orderings_between(analysis, after, before, &j) > j;
}

static void check_barrier(bp_analysis *analysis, uint32_t id, bp_vec *before, bp_vec *after) {
  const bp_engine *engine = analysis->engine;
  const bp_event *barrier = bp_event_get(engine, id);
  before->count = after->count = 0;
  bp_accesses_around(engine, id, false, before);
  bp_accesses_around(engine, id, true, after);
  first_per_object(engine, before);
  first_per_object(engine, after);
  if (!before->count || !after->count)
    return;
  uint32_t first = BP_NO_EVENT, second = BP_NO_EVENT;
  for (size_t i = 0; i < before->count; i++) {
    uint32_t x = *(uint32_t *)bp_vec_at(before, i);
    for (size_t k = 0; k < after->count; k++) {
      uint32_t y = *(uint32_t *)bp_vec_at(after, k);
      uint32_t x_object = bp_event_get(engine, x)->object;
      uint32_t y_object = bp_event_get(engine, y)->object;
      if (x_object == y_object || bp_counter(analysis, x_object) || bp_counter(analysis, y_object))
        continue;
      if (mirrored(analysis, x_object, y_object))
        return;
      if (first == BP_NO_EVENT) {
        first = x;
        second = y;
      }
    }
  }
  if (first == BP_NO_EVENT)
    return; /* only one object around it: Quick Quiz 8's barrier acts alone */
  bp_finding *finding = bp_add_candidate(analysis, BP_RULE_UNPAIRED_BARRIER);
  if (!finding)
    return;
  finding->at = id;
  finding->side = (bp_side){barrier->function, first, second, id, barrier->strength};
  finding->need = barrier->strength;
  const bp_primitive *primitive = bp_primitive_get(barrier->primitive);
  finding->family = primitive ? primitive->family : BP_FAMILY_URCU;
}

/* A barrier beside a "pairs with" annotation counts as paired. */
static void honour_declared_pairings(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count)
    return;
  bp_vec entries = bp_events_by_line(engine), barriers;
  bp_vec_init(&barriers, sizeof(uint32_t));
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = bp_vec_at(&engine->annotations, a);
    if (annotation->kind != BP_ANNOTATION_PAIRS_WITH)
      continue;
    bp_barriers_beside(engine, &entries, annotation, &barriers);
    for (size_t i = 0; i < barriers.count; i++)
      bp_mark_paired(analysis, *(uint32_t *)bp_vec_at(&barriers, i));
  }
  bp_vec_free(&barriers);
  bp_vec_free(&entries);
}

void bp_check_unpaired_barriers(bp_analysis *analysis) {
  honour_declared_pairings(analysis);
  if (analysis->options->disabled[BP_RULE_UNPAIRED_BARRIER])
    return;
  const bp_engine *engine = analysis->engine;
  bp_vec before, after;
  bp_vec_init(&before, sizeof(uint32_t));
  bp_vec_init(&after, sizeof(uint32_t));
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_BARRIER && !event->implicit && event->strength &&
        !analysis->paired[id])
      check_barrier(analysis, id, &before, &after);
  }
  bp_vec_free(&before);
  bp_vec_free(&after);
}
