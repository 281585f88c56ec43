/* unpaired-barrier: a barrier that no function pairs with. For no object X
 * before it and Y after it does a function (another, or this one elsewhere,
 * run by another thread) order Y before X, no other barrier has X or Y on
 * its other side, no cycle runs through it, and no annotation declares its
 * pairing. A barrier with no shared access on one side is left alone: what
 * it orders may be in a caller. */
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

/* An object and a place for accesses, for the tests below. */
typedef struct {
  uint32_t object;
  bp_vec *scratch;
} next_run_test;

static bool accesses_object(const bp_engine *engine, uint32_t id, const void *context) {
  const bp_event *event = bp_event_get(engine, id);
  return event->type == BP_EVENT_ACCESS &&
         event->object == ((const next_run_test *)context)->object;
}

/* A barrier with an access to the context's object before it. */
static bool follows_object(const bp_engine *engine, uint32_t id, const void *context) {
  const next_run_test *test = context;
  const bp_event *event = bp_event_get(engine, id);
  if (event->type != BP_EVENT_BARRIER || !event->strength)
    return false;
  test->scratch->count = 0;
  bp_accesses_around(engine, id, false, test->scratch);
  for (size_t k = 0; k < test->scratch->count; k++)
    if (accesses_object(engine, *(uint32_t *)bp_vec_at(test->scratch, k), context))
      return true;
  return false;
}

/* The barrier's own function orders `after` before `before` from one of
 * its runs to the next, as threads that run it in turn see it: a barrier
 * of it has an access to `after` before it, and the function accesses
 * `before`, which its next run then does after that barrier. A thread
 * barrier's waiter spins on the sense, orders it with a fence, and adds
 * to the count at its next arrival, as the last to arrive resets the
 * count before it flips the sense. */
static bool next_run_mirrors(const bp_engine *engine, uint32_t function, uint32_t before,
                             uint32_t after, bp_vec *scratch) {
  next_run_test first = {before, scratch}, then = {after, scratch};
  return bp_function_has_event(engine, function, accesses_object, &first) &&
         bp_function_has_event(engine, function, follows_object, &then);
}

/* Per object and kind of access, the barrier that orders such an access
 * after something else (`across_after`) or before something else
 * (`across_before`): BP_NO_EVENT for none, SEVERAL for more than one. */
#define SEVERAL (BP_NO_EVENT - 1)
typedef struct {
  uint32_t (*across_after)[2], (*across_before)[2];
} barrier_sides;

static void note_barrier(uint32_t *slot, uint32_t barrier) {
  *slot = *slot == BP_NO_EVENT || *slot == barrier ? barrier : SEVERAL;
}

static void collect_barrier_sides(const bp_analysis *analysis, barrier_sides *sides) {
  size_t objects = analysis->engine->objects.strings.count + 1;
  sides->across_after = malloc(objects * sizeof *sides->across_after);
  sides->across_before = malloc(objects * sizeof *sides->across_before);
  if (!sides->across_after || !sides->across_before)
    abort();
  for (size_t o = 0; o < objects; o++)
    for (int kind = 0; kind < 2; kind++)
      sides->across_after[o][kind] = sides->across_before[o][kind] = BP_NO_EVENT;
  for (size_t i = 0; i < analysis->orderings.count; i++) {
    const bp_ordering *ordering = bp_vec_at(&analysis->orderings, i);
    if (!ordering->strength || ordering->barrier == BP_NO_EVENT)
      continue;
    note_barrier(&sides->across_after[ordering->second_object][ordering->second_kind],
                 ordering->barrier);
    note_barrier(&sides->across_before[ordering->first_object][ordering->first_kind],
                 ordering->barrier);
  }
}

/* Another barrier has `access`'s object on its other side, with a store on
 * one of the two: the flag of a message, or one variable of a Dekker,
 * whose other objects may be in code not analysed. The pair exists, so
 * the barrier is not alone; which objects it misses is other rules' work. */
static bool met_across(const bp_engine *engine, uint32_t (*across)[2], uint32_t barrier,
                       uint32_t access) {
  const bp_event *event = bp_event_get(engine, access);
  for (int kind = 0; kind < 2; kind++) {
    uint32_t other = across[event->object][kind];
    bool communicates = kind == BP_ACCESS_STORE || event->kind == BP_ACCESS_STORE;
    if (communicates && other != BP_NO_EVENT && other != barrier)
      return true;
  }
  return false;
}

static void check_barrier(bp_analysis *analysis, const barrier_sides *sides, uint32_t id,
                          bp_vec *before, bp_vec *after, bp_vec *scratch) {
  const bp_engine *engine = analysis->engine;
  const bp_event *barrier = bp_event_get(engine, id);
  before->count = after->count = 0;
  bp_accesses_around(engine, id, false, before);
  bp_accesses_around(engine, id, true, after);
  first_per_object(engine, before);
  first_per_object(engine, after);
  if (!before->count || !after->count)
    return;
  for (size_t i = 0; i < before->count; i++)
    if (met_across(engine, sides->across_after, id, *(uint32_t *)bp_vec_at(before, i)))
      return;
  for (size_t k = 0; k < after->count; k++)
    if (met_across(engine, sides->across_before, id, *(uint32_t *)bp_vec_at(after, k)))
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
      if (mirrored(analysis, x_object, y_object) ||
          next_run_mirrors(engine, barrier->function, x_object, y_object, scratch))
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
  finding->family = bp_event_family(engine, id);
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
  bp_vec before, after, scratch;
  bp_vec_init(&before, sizeof(uint32_t));
  bp_vec_init(&after, sizeof(uint32_t));
  bp_vec_init(&scratch, sizeof(uint32_t));
  barrier_sides sides;
  collect_barrier_sides(analysis, &sides);
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_BARRIER && !event->implicit && event->strength &&
        !analysis->paired[id] && !bp_function_runs_alone(engine, event->function))
      check_barrier(analysis, &sides, id, &before, &after, &scratch);
  }
  free(sides.across_after);
  free(sides.across_before);
  bp_vec_free(&before);
  bp_vec_free(&after);
  bp_vec_free(&scratch);
}
