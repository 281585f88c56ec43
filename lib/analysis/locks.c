/* The locks held at each access: those every path from the function's
 * entry has taken and not released (a must-analysis over the blocks, loop
 * edges included: a lock is state, not an order). Code that holds one lock
 * at all four accesses of a pairing runs in mutual exclusion with its
 * partner, so the pair orders nothing; an access and the access it races
 * with under one lock do not race. */
#include "analysis/analysis.h"

#include <stdlib.h>

/* Per function, locks are numbered by their first LOCK event; a function
 * rarely takes more, and the ones beyond are not tracked. */
#define LOCKS_TRACKED 64

typedef struct {
  uint32_t objects[LOCKS_TRACKED];
  size_t count;
} lock_numbers;

static int lock_number(lock_numbers *numbers, uint32_t object, bool add) {
  for (size_t i = 0; i < numbers->count; i++) {
    if (numbers->objects[i] == object)
      return (int)i;
  }
  if (!add || numbers->count == LOCKS_TRACKED)
    return -1;
  numbers->objects[numbers->count] = object;
  return (int)numbers->count++;
}

static uint64_t transfer(const bp_engine *engine, const bp_block *block, uint64_t held,
                         lock_numbers *numbers, uint32_t *record) {
  for (size_t i = 0; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(engine, id);
    int number = event->type == BP_EVENT_LOCK || event->type == BP_EVENT_UNLOCK
                     ? lock_number(numbers, event->object, false)
                     : -1;
    if (number >= 0 && event->type == BP_EVENT_LOCK)
      held |= UINT64_C(1) << number;
    else if (number >= 0)
      held &= ~(UINT64_C(1) << number);
    else if (record && event->type == BP_EVENT_ACCESS) {
      size_t slot = 0;
      for (size_t n = 0; n < numbers->count && slot < BP_HELD_MAX; n++) {
        if (held & (UINT64_C(1) << n))
          record[(size_t)id * BP_HELD_MAX + slot++] = numbers->objects[n];
      }
    }
  }
  return held;
}

static void held_in_function(const bp_engine *engine, const bp_function *function, uint32_t *held) {
  lock_numbers numbers = {.count = 0};
  size_t block_count = function->blocks.count;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const bp_event *event = bp_event_get(engine, *(uint32_t *)bp_vec_at(&block->events, i));
      if (event->type == BP_EVENT_LOCK)
        lock_number(&numbers, event->object, true);
    }
  }
  if (numbers.count == 0 || block_count == 0)
    return;
  uint64_t *in = malloc(block_count * sizeof *in);
  bool *entered = calloc(block_count, sizeof *entered), *queued = calloc(block_count, 1);
  uint32_t *worklist = malloc(block_count * sizeof *worklist);
  if (!in || !entered || !queued || !worklist)
    abort();
  for (size_t b = 0; b < block_count; b++)
    in[b] = UINT64_MAX;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++)
      entered[*(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE] = true;
  }
  size_t pending = 0;
  for (size_t b = 0; b < block_count; b++) {
    if (!entered[b]) {
      in[b] = 0; /* an entry: nothing held yet */
      queued[b] = true;
      worklist[pending++] = (uint32_t)b;
    }
  }
  while (pending) {
    uint32_t b = worklist[--pending];
    queued[b] = false;
    const bp_block *block = bp_vec_at(&function->blocks, b);
    uint64_t out = transfer(engine, block, in[b], &numbers, NULL);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
      uint64_t met = in[successor] & out;
      if (met != in[successor] || !queued[successor]) {
        bool changed = met != in[successor];
        in[successor] = met;
        if (changed && !queued[successor]) {
          queued[successor] = true;
          worklist[pending++] = successor;
        }
      }
    }
  }
  for (size_t b = 0; b < block_count; b++)
    transfer(engine, bp_vec_at(&function->blocks, b), in[b], &numbers, held);
  free(in);
  free(entered);
  free(queued);
  free(worklist);
}

void bp_compute_held_locks(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t slots = (bp_event_count(engine) + 1) * BP_HELD_MAX;
  analysis->held = malloc(slots * sizeof *analysis->held);
  if (!analysis->held)
    abort();
  for (size_t i = 0; i < slots; i++)
    analysis->held[i] = BP_NO_OBJECT;
  for (size_t f = 0; f < engine->functions.count; f++)
    held_in_function(engine, bp_vec_at(&engine->functions, f), analysis->held);
}

static bool holds(const bp_analysis *analysis, uint32_t event, uint32_t lock) {
  for (size_t i = 0; i < BP_HELD_MAX; i++) {
    if (analysis->held[(size_t)event * BP_HELD_MAX + i] == lock)
      return true;
  }
  return false;
}

bool bp_hold_common_lock(const bp_analysis *analysis, const uint32_t *events, size_t count) {
  for (size_t i = 0; count && i < BP_HELD_MAX; i++) {
    uint32_t lock = analysis->held[(size_t)events[0] * BP_HELD_MAX + i];
    if (lock == BP_NO_OBJECT)
      break;
    bool everywhere = true;
    for (size_t e = 1; e < count && everywhere; e++)
      everywhere = holds(analysis, events[e], lock);
    if (everywhere)
      return true;
  }
  return false;
}
