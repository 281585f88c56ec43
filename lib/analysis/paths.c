/* Paths inside one function's blocks: whether every way on from one event
 * meets another, whether an event decides a loop's next round, and whether
 * every way from one event to another passes a third. A way that goes
 * round a loop for ever never ends: only the ways that leave it (or that
 * end the function) count. */
#include "analysis/analysis.h"

#include <stdlib.h>

typedef struct {
  size_t block, index;
} place;

static bool find_place(const bp_function *function, uint32_t event, place *found) {
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      if (*(uint32_t *)bp_vec_at(&block->events, i) == event) {
        *found = (place){b, i};
        return true;
      }
    }
  }
  return false;
}

static const bp_function *function_of(const bp_engine *engine, uint32_t event) {
  uint32_t f = bp_event_get(engine, event)->function;
  return f < engine->functions.count ? bp_vec_at(&engine->functions, f) : NULL;
}

/* Whether every way on from the end of `block` meets a block of `meets`,
 * and there is one. */
static bool every_way_on(const bp_block *block, const bool *meets) {
  bool any = false;
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
    if (!meets[successor])
      return false;
    any = true;
  }
  return any;
}

bool bp_reach_target_init(const bp_engine *engine, uint32_t to, bp_reach_target *target) {
  *target = (bp_reach_target){function_of(engine, to), 0, 0, NULL};
  place at;
  if (!target->function || !find_place(target->function, to, &at))
    return false;
  target->block = at.block;
  target->index = at.index;
  const bp_function *function = target->function;
  size_t count = function->blocks.count;
  /* The greatest set of blocks from whose start every way meets `to` is
   * what is left of the blocks once those with a way that ends without
   * meeting it are taken out: found backwards from those ends, in one walk
   * over the predecessors. A way that ends elsewhere than at the
   * function's return ends in a call that does not return (an assertion's
   * failure), and meets nothing it needs to; a way round a loop for ever
   * never ends. */
  bool *meets = malloc(count * sizeof *meets);
  uint32_t *work = malloc((count + 1) * sizeof *work);
  if (!meets || !work)
    abort();
  bp_predecessors predecessors;
  bp_predecessors_init(function, &predecessors);
  size_t pending = 0;
  for (size_t b = 0; b < count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    bool ends_unmet = b != at.block && block->successors.count == 0 &&
                      (function->exit == BP_NO_BLOCK || b == function->exit);
    meets[b] = !ends_unmet;
    if (ends_unmet)
      work[pending++] = (uint32_t)b;
  }
  while (pending) {
    uint32_t b = work[--pending];
    for (uint32_t p = predecessors.first[b]; p < predecessors.first[b + 1]; p++) {
      uint32_t predecessor = predecessors.blocks[p];
      if (predecessor != at.block && meets[predecessor]) {
        meets[predecessor] = false;
        work[pending++] = predecessor;
      }
    }
  }
  bp_predecessors_free(&predecessors);
  free(work);
  target->meets = meets;
  return true;
}

void bp_predecessors_init(const bp_function *function, bp_predecessors *predecessors) {
  size_t count = function->blocks.count, edges = 0;
  uint32_t *first = calloc(count + 2, sizeof *first);
  if (!first)
    abort();
  for (size_t b = 0; b < count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++)
      first[(*(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE) + 2]++;
    edges += block->successors.count;
  }
  for (size_t b = 2; b < count + 2; b++)
    first[b] += first[b - 1];
  /* filled by counting first[b + 1] up from block b's start to its end */
  uint32_t *blocks = malloc((edges + 1) * sizeof *blocks);
  if (!blocks)
    abort();
  for (size_t b = 0; b < count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++)
      blocks[first[(*(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE) + 1]++] =
          (uint32_t)b;
  }
  *predecessors = (bp_predecessors){first, blocks};
}

void bp_predecessors_free(bp_predecessors *predecessors) {
  free(predecessors->first);
  free(predecessors->blocks);
  *predecessors = (bp_predecessors){NULL, NULL};
}

bool bp_reaches_target(const bp_engine *engine, const bp_reach_target *target, uint32_t from) {
  place start;
  if (!target->meets || function_of(engine, from) != target->function ||
      !find_place(target->function, from, &start))
    return false;
  if (start.block == target->block && target->index > start.index)
    return true;
  return every_way_on(bp_vec_at(&target->function->blocks, start.block), target->meets);
}

void bp_reach_target_free(bp_reach_target *target) {
  free(target->meets);
  target->meets = NULL;
}

bool bp_always_reaches(const bp_engine *engine, uint32_t from, uint32_t to) {
  bp_reach_target target;
  bool always =
      bp_reach_target_init(engine, to, &target) && bp_reaches_target(engine, &target, from);
  bp_reach_target_free(&target);
  return always;
}

/* Whether a way on from `block` goes back to a loop's head before any
 * event (through blocks that hold none: a do-while's back edge leaves from
 * a block of its own, and each inlined helper the tested value is returned
 * through adds its exit: read_seqretry()'s three layers). */
static bool loops_back(const bp_function *function, const bp_block *block, unsigned depth) {
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
    if (successor & BP_LOOP_EDGE)
      return true;
    const bp_block *next = bp_vec_at(&function->blocks, successor);
    if (depth < 12 && next->events.count == 0 && loops_back(function, next, depth + 1))
      return true;
  }
  return false;
}

bool bp_decides_next_round(const bp_engine *engine, uint32_t event) {
  const bp_function *function = function_of(engine, event);
  place at;
  if (!function || !find_place(function, event, &at))
    return false;
  const bp_block *block = bp_vec_at(&function->blocks, at.block);
  return loops_back(function, block, 0);
}

/* Where a walk of `block`'s events from `from_index` on stops: at `via`
 * (1), at `to` (-1), or at neither (0). */
static int first_met(const bp_block *block, size_t from_index, uint32_t via, uint32_t to) {
  for (size_t i = from_index; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    if (id == via)
      return 1;
    if (id == to)
      return -1;
  }
  return 0;
}

/* Pushes the successors of `block` not seen yet. */
static void push_successors(const bp_block *block, bool *seen, size_t *stack, size_t *depth) {
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
    if (!seen[successor]) {
      seen[successor] = true;
      stack[(*depth)++] = successor;
    }
  }
}

bool bp_every_way_passes(const bp_engine *engine, uint32_t from, uint32_t via, uint32_t to) {
  const bp_function *function = function_of(engine, from);
  place start, found;
  if (!function || function != function_of(engine, via) || function != function_of(engine, to) ||
      !find_place(function, from, &start) || !find_place(function, via, &found) ||
      !find_place(function, to, &found))
    return false;
  const bp_block *first = bp_vec_at(&function->blocks, start.block);
  int met = first_met(first, start.index + 1, via, to);
  if (met)
    return met > 0;
  size_t count = function->blocks.count, depth = 0;
  bool *seen = calloc(count, sizeof *seen);
  size_t *stack = malloc(count * sizeof *stack);
  if (!seen || !stack)
    abort();
  push_successors(first, seen, stack, &depth);
  /* a way that meets `via` goes no further; one that meets `to` first
   * did not pass it (the first block again, from its top, included) */
  bool passes = true;
  while (passes && depth) {
    const bp_block *block = bp_vec_at(&function->blocks, stack[--depth]);
    met = first_met(block, 0, via, to);
    passes = met >= 0;
    if (!met)
      push_successors(block, seen, stack, &depth);
  }
  free(seen);
  free(stack);
  return passes;
}
