/* A read or write barrier that stands where it can order nothing of its
 * kind: a cmm_smp_wmb() between two loads, a cmm_smp_rmb() between a store
 * and a load. Found from the barrier alone; no partner is needed. */
#include "internal.h"

#include <stdlib.h>

typedef struct {
  uint32_t block, index;
} position;

typedef struct {
  uint32_t any;        /* an access on this side, or BP_NO_EVENT */
  uint32_t of_kind[2]; /* a load, a store on this side, or BP_NO_EVENT */
} side_accesses;

static void note_access(const bp_engine *engine, uint32_t id, side_accesses *side) {
  const bp_event *event = bp_event_get(engine, id);
  if (event->type != BP_EVENT_ACCESS)
    return;
  if (side->any == BP_NO_EVENT)
    side->any = id;
  if (side->of_kind[event->kind] == BP_NO_EVENT)
    side->of_kind[event->kind] = id;
}

/* Every access reachable from `start` going forward (or backward), with the
 * start block scanned from `index` on (or up to it). */
static side_accesses accesses_on_side(const bp_engine *engine, const bp_function *function,
                                      const bp_vec *predecessors, position start, bool forward) {
  side_accesses side = {BP_NO_EVENT, {BP_NO_EVENT, BP_NO_EVENT}};
  size_t block_count = function->blocks.count;
  bool *seen = calloc(block_count, sizeof *seen);
  uint32_t *stack = malloc(block_count * sizeof *stack);
  if (!seen || !stack)
    abort();
  size_t depth = 0;
  const bp_block *first = bp_vec_at(&function->blocks, start.block);
  for (size_t i = forward ? start.index + 1 : 0; i < (forward ? first->events.count : start.index);
       i++)
    note_access(engine, *(uint32_t *)bp_vec_at(&first->events, i), &side);
  const bp_vec *edges = forward ? &first->successors : &predecessors[start.block];
  for (size_t e = 0; e < edges->count; e++)
    stack[depth++] = *(uint32_t *)bp_vec_at(edges, e);
  while (depth) {
    uint32_t block_index = stack[--depth];
    if (seen[block_index])
      continue;
    seen[block_index] = true;
    const bp_block *block = bp_vec_at(&function->blocks, block_index);
    for (size_t i = 0; i < block->events.count; i++)
      note_access(engine, *(uint32_t *)bp_vec_at(&block->events, i), &side);
    edges = forward ? &block->successors : &predecessors[block_index];
    for (size_t e = 0; e < edges->count; e++) {
      uint32_t next = *(uint32_t *)bp_vec_at(edges, e);
      if (!seen[next] && depth < block_count)
        stack[depth++] = next;
    }
  }
  free(seen);
  free(stack);
  return side;
}

static void check_barrier(const bp_engine *engine, const bp_function *function,
                          const bp_vec *predecessors, uint32_t function_index, position at,
                          uint32_t id, bp_vec *findings) {
  const bp_event *barrier = bp_event_get(engine, id);
  bp_access_kind kind;
  if (barrier->implicit)
    return;
  if (barrier->strength == BP_STRENGTH_LOADS)
    kind = BP_ACCESS_LOAD;
  else if (barrier->strength == BP_STRENGTH_STORES)
    kind = BP_ACCESS_STORE;
  else
    return;
  side_accesses before = accesses_on_side(engine, function, predecessors, at, false);
  side_accesses after = accesses_on_side(engine, function, predecessors, at, true);
  if (before.any == BP_NO_EVENT || after.any == BP_NO_EVENT)
    return; /* what it orders may be in a caller */
  if (before.of_kind[kind] != BP_NO_EVENT && after.of_kind[kind] != BP_NO_EVENT)
    return;
  bp_finding *finding = bp_vec_push(findings);
  finding->rule = BP_RULE_WEAK_BARRIER;
  finding->at = id;
  finding->scenario = -1;
  finding->side = (bp_side){function_index, before.any, after.any, id, barrier->strength};
  finding->partner = (bp_side){BP_NO_FUNCTION, BP_NO_EVENT, BP_NO_EVENT, BP_NO_EVENT, 0};
  bool loads_only = before.of_kind[BP_ACCESS_STORE] == BP_NO_EVENT &&
                    after.of_kind[BP_ACCESS_STORE] == BP_NO_EVENT;
  bool stores_only =
      before.of_kind[BP_ACCESS_LOAD] == BP_NO_EVENT && after.of_kind[BP_ACCESS_LOAD] == BP_NO_EVENT;
  finding->need = loads_only    ? BP_STRENGTH_LOADS
                  : stores_only ? BP_STRENGTH_STORES
                                : BP_STRENGTH_FULL;
  const bp_primitive *primitive = bp_primitive_get(barrier->primitive);
  finding->family = primitive ? primitive->family : BP_FAMILY_URCU;
}

void bp_check_barrier_kinds(const bp_engine *engine, uint32_t function_index, bp_vec *findings) {
  const bp_function *function = bp_vec_at(&engine->functions, function_index);
  size_t block_count = function->blocks.count;
  bp_vec *predecessors = malloc((block_count ? block_count : 1) * sizeof *predecessors);
  if (!predecessors)
    abort();
  for (size_t b = 0; b < block_count; b++)
    bp_vec_init(&predecessors[b], sizeof(uint32_t));
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
      *(uint32_t *)bp_vec_push(&predecessors[successor]) = (uint32_t)b;
    }
  }
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      if (bp_event_get(engine, id)->type == BP_EVENT_BARRIER)
        check_barrier(engine, function, predecessors, function_index,
                      (position){(uint32_t)b, (uint32_t)i}, id, findings);
    }
  }
  for (size_t b = 0; b < block_count; b++)
    bp_vec_free(&predecessors[b]);
  free(predecessors);
}
