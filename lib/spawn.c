/* Threads a function starts (pthread_create()): what the function did
 * before it started thread T happens before everything T does. Such an
 * access races with nothing of T's, and a pairing whose first access on one
 * side comes before the other side's thread started cannot show its
 * forbidden outcome (the cycle needs that access to be missed). "Before"
 * here means the access cannot run after the start: no path leads from the
 * start to it, loop edges included. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Per function, the threads it starts are numbered by first start; more
 * are not tracked. */
#define SPAWNS_TRACKED 32

static void push_successors(const bp_block *block, bool *seen, uint32_t *stack, size_t *pending) {
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t next = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
    if (!seen[next]) {
      seen[next] = true;
      stack[(*pending)++] = next;
    }
  }
}

/* Sets `bit` on every event that can run after event `index` of `block`. */
static void mark_reachable(const bp_function *function, uint32_t block, size_t index, uint32_t bit,
                           uint32_t *after, bool *seen, uint32_t *stack) {
  size_t pending = 0;
  memset(seen, 0, function->blocks.count * sizeof *seen);
  const bp_block *start = bp_vec_at(&function->blocks, block);
  for (size_t i = index + 1; i < start->events.count; i++)
    after[*(uint32_t *)bp_vec_at(&start->events, i)] |= bit;
  push_successors(start, seen, stack, &pending);
  while (pending) {
    const bp_block *current = bp_vec_at(&function->blocks, stack[--pending]);
    for (size_t i = 0; i < current->events.count; i++)
      after[*(uint32_t *)bp_vec_at(&current->events, i)] |= bit;
    push_successors(current, seen, stack, &pending);
  }
}

void bp_compute_spawns(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t events = bp_event_count(engine);
  analysis->after_spawn = calloc(events + 1, sizeof *analysis->after_spawn);
  analysis->spawned = calloc(engine->functions.count + 1, sizeof *analysis->spawned);
  if (!analysis->after_spawn || !analysis->spawned)
    abort();
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    bp_vec *names = &analysis->spawned[f];
    bp_vec_init(names, sizeof(uint32_t));
    bool *seen = NULL;
    uint32_t *stack = NULL;
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t i = 0; i < block->events.count; i++) {
        const bp_event *event = bp_event_get(engine, *(uint32_t *)bp_vec_at(&block->events, i));
        if (event->type != BP_EVENT_SPAWN)
          continue;
        size_t number = 0;
        while (number < names->count && *(uint32_t *)bp_vec_at(names, number) != event->callee)
          number++;
        if (number == names->count) {
          if (names->count == SPAWNS_TRACKED)
            continue;
          *(uint32_t *)bp_vec_push(names) = event->callee;
        }
        if (!seen) {
          seen = malloc(function->blocks.count * sizeof *seen);
          stack = malloc(function->blocks.count * sizeof *stack);
          if (!seen || !stack)
            abort();
        }
        mark_reachable(function, (uint32_t)b, i, UINT32_C(1) << number, analysis->after_spawn, seen,
                       stack);
      }
    }
    free(seen);
    free(stack);
  }
}

void bp_free_spawns(bp_analysis *analysis) {
  for (uint32_t f = 0; analysis->spawned && f < analysis->engine->functions.count; f++)
    bp_vec_free(&analysis->spawned[f]);
  free(analysis->spawned);
  free(analysis->after_spawn);
}

bool bp_before_thread(const bp_analysis *analysis, uint32_t event, uint32_t thread) {
  const bp_engine *engine = analysis->engine;
  const bp_event *access = bp_event_get(engine, event);
  const bp_function *started = bp_vec_at(&engine->functions, thread);
  const bp_vec *names = &analysis->spawned[access->function];
  for (size_t i = 0; i < names->count; i++) {
    if (*(uint32_t *)bp_vec_at(names, i) == started->name)
      return !(analysis->after_spawn[event] & (UINT32_C(1) << i));
  }
  return false;
}

bool bp_before_all_threads(const bp_analysis *analysis, uint32_t event) {
  const bp_event *access = bp_event_get(analysis->engine, event);
  return analysis->spawned[access->function].count > 0 && analysis->after_spawn[event] == 0;
}
