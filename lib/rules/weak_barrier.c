/* weak-barrier, from the barrier alone: a read or write barrier that stands
 * where it can order nothing of its kind: a cmm_smp_wmb() between two loads,
 * a cmm_smp_rmb() between a store and a load. No partner is needed; a
 * pair's side whose barrier is too weak for its partner is
 * missing_barrier.c's. */
#include "rules/rules.h"

#include <stdlib.h>

typedef struct {
  uint32_t any;        /* an access on this side, or BP_NO_EVENT */
  uint32_t of_kind[2]; /* a load, a store on this side, or BP_NO_EVENT */
  bool calls;          /* a call of a function whose code is not lowered here */
} side_accesses;

static side_accesses accesses_on_side(const bp_engine *engine, uint32_t barrier, bool after) {
  side_accesses side = {BP_NO_EVENT, {BP_NO_EVENT, BP_NO_EVENT}, false};
  bp_vec accesses;
  bp_vec_init(&accesses, sizeof(uint32_t));
  bp_events_around(engine, barrier, after, &accesses);
  for (size_t i = 0; i < accesses.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&accesses, i);
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_CALL && !event->inlined)
      side.calls = true;
    if (event->type != BP_EVENT_ACCESS)
      continue;
    bp_access_kind kind = event->kind;
    if (side.any == BP_NO_EVENT)
      side.any = id;
    if (side.of_kind[kind] == BP_NO_EVENT)
      side.of_kind[kind] = id;
  }
  bp_vec_free(&accesses);
  return side;
}

/* Every access before `barrier` is a load whose value decides whether
 * `store` runs (`if (m == NULL) { wmb; store }`): nothing of the function's
 * own is ordered before the store, so what the wmb orders there are the
 * caller's stores, as at the function's start (Concurrency Kit's
 * ck_array_commit()). */
static bool only_deciding_loads_before(const bp_engine *engine, uint32_t barrier, uint32_t store) {
  bp_vec accesses;
  bp_vec_init(&accesses, sizeof(uint32_t));
  bp_accesses_around(engine, barrier, false, &accesses);
  bool deciding = accesses.count > 0;
  for (size_t i = 0; i < accesses.count && deciding; i++) {
    const bp_event *access = bp_event_get(engine, *(uint32_t *)bp_vec_at(&accesses, i));
    deciding = access->kind == BP_ACCESS_LOAD && bp_event_guarded_by(engine, store, access->object);
  }
  bp_vec_free(&accesses);
  return deciding;
}

static void check_barrier(bp_analysis *analysis, uint32_t id) {
  const bp_engine *engine = analysis->engine;
  const bp_event *barrier = bp_event_get(engine, id);
  bp_access_kind kind;
  if (barrier->strength == BP_STRENGTH_LOADS)
    kind = BP_ACCESS_LOAD;
  else if (barrier->strength == BP_STRENGTH_STORES)
    kind = BP_ACCESS_STORE;
  else
    return;
  /* A helper's barrier (write_sequnlock()'s smp_wmb()) is written for
   * every caller; one caller's code on a side says nothing of its kind. */
  if (bp_event_callee(engine, id)[0])
    return;
  side_accesses before = accesses_on_side(engine, id, false);
  side_accesses after = accesses_on_side(engine, id, true);
  if (before.any == BP_NO_EVENT || after.any == BP_NO_EVENT)
    return; /* what it orders may be in a caller */
  if ((before.of_kind[kind] != BP_NO_EVENT || before.calls) &&
      (after.of_kind[kind] != BP_NO_EVENT || after.calls))
    return; /* or in a function it calls, whose code is not seen here */
  if (kind == BP_ACCESS_STORE && barrier->after_unnamed_stores &&
      after.of_kind[BP_ACCESS_STORE] != BP_NO_EVENT)
    return; /* it orders a fresh structure's filling in before its publication */
  if (kind == BP_ACCESS_STORE && after.of_kind[BP_ACCESS_STORE] != BP_NO_EVENT &&
      only_deciding_loads_before(engine, id, after.of_kind[BP_ACCESS_STORE]))
    return;
  bp_finding *finding = bp_add_candidate(analysis, BP_RULE_WEAK_BARRIER);
  if (!finding)
    return;
  finding->at = id;
  finding->scenario = -1;
  finding->side = (bp_side){barrier->function, before.any, after.any, id, barrier->strength};
  finding->partner = (bp_side){BP_NO_FUNCTION, BP_NO_EVENT, BP_NO_EVENT, BP_NO_EVENT, 0};
  bool loads_only = before.of_kind[BP_ACCESS_STORE] == BP_NO_EVENT &&
                    after.of_kind[BP_ACCESS_STORE] == BP_NO_EVENT;
  bool stores_only =
      before.of_kind[BP_ACCESS_LOAD] == BP_NO_EVENT && after.of_kind[BP_ACCESS_LOAD] == BP_NO_EVENT;
  finding->need = loads_only    ? BP_STRENGTH_LOADS
                  : stores_only ? BP_STRENGTH_STORES
                                : BP_STRENGTH_FULL;
  finding->family = bp_event_family(engine, id);
}

void bp_check_barrier_kinds(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_BARRIER && !event->implicit)
      check_barrier(analysis, id);
  }
}
