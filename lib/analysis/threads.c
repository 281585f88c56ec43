/* Threads a function starts (pthread_create()) and waits for
 * (pthread_join()). What the function did before it started thread T
 * happens before everything T does; what it does only after joining T,
 * everything T did happens before. Such accesses neither race with T's nor
 * pair with them: every row's forbidden cycle needs CPU 0's first access to
 * be missed by CPU 1 and CPU 0's second to miss CPU 1's first, which these
 * orders rule out.
 *
 * "Before a start" means no path leads from the start to the access; "only
 * after a join" means no path from the function's entry reaches the access
 * without passing the join. Loop edges count: this is control, not order. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* Per function, the threads it starts (and joins) are numbered by first
 * appearance; more are not tracked. */
#define THREADS_TRACKED 32

typedef struct {
  const bp_function *function;
  bool *seen;
  uint32_t *stack;
  size_t pending;
} walk;

static void push(walk *w, uint32_t block) {
  if (!w->seen[block]) {
    w->seen[block] = true;
    w->stack[w->pending++] = block;
  }
}

static void push_successors(walk *w, const bp_block *block) {
  for (size_t s = 0; s < block->successors.count; s++)
    push(w, *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE);
}

/* Sets `bit` in `marks` on every event that can run after event `index` of
 * `block` (a start). */
static void mark_after(walk *w, uint32_t block, size_t index, uint32_t bit, uint32_t *marks) {
  memset(w->seen, 0, w->function->blocks.count * sizeof *w->seen);
  w->pending = 0;
  const bp_block *start = bp_vec_at(&w->function->blocks, block);
  for (size_t i = index + 1; i < start->events.count; i++)
    marks[*(uint32_t *)bp_vec_at(&start->events, i)] |= bit;
  push_successors(w, start);
  while (w->pending) {
    const bp_block *current = bp_vec_at(&w->function->blocks, w->stack[--w->pending]);
    for (size_t i = 0; i < current->events.count; i++)
      marks[*(uint32_t *)bp_vec_at(&current->events, i)] |= bit;
    push_successors(w, current);
  }
}

/* Sets `bit` in `marks` on every event that can run before, or without, a
 * join of thread `name`: reachable from an entry without passing one. */
static void mark_before_join(walk *w, uint32_t name, uint32_t bit, uint32_t *marks,
                             const bp_engine *engine) {
  size_t block_count = w->function->blocks.count;
  memset(w->seen, 0, block_count * sizeof *w->seen);
  w->pending = 0;
  bool *entered = calloc(block_count, sizeof *entered);
  if (!entered)
    abort();
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&w->function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++)
      entered[*(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE] = true;
  }
  for (size_t b = 0; b < block_count; b++) {
    if (!entered[b])
      push(w, (uint32_t)b);
  }
  free(entered);
  while (w->pending) {
    const bp_block *current = bp_vec_at(&w->function->blocks, w->stack[--w->pending]);
    bool joined = false;
    for (size_t i = 0; i < current->events.count && !joined; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&current->events, i);
      const bp_event *event = bp_event_get(engine, id);
      joined = event->type == BP_EVENT_JOIN && event->callee == name;
      if (!joined)
        marks[id] |= bit;
    }
    if (!joined)
      push_successors(w, current);
  }
}

static int thread_number(bp_vec *names, uint32_t name) {
  for (size_t i = 0; i < names->count; i++) {
    if (*(uint32_t *)bp_vec_at(names, i) == name)
      return (int)i;
  }
  if (names->count == THREADS_TRACKED)
    return -1;
  *(uint32_t *)bp_vec_push(names) = name;
  return (int)names->count - 1;
}

static void threads_of_function(bp_analysis *analysis, uint32_t f) {
  const bp_engine *engine = analysis->engine;
  const bp_function *function = bp_vec_at(&engine->functions, f);
  bp_vec *started = &analysis->spawned[f], *joined = &analysis->joined[f];
  bp_vec_init(started, sizeof(uint32_t));
  bp_vec_init(joined, sizeof(uint32_t));
  walk w = {.function = function};
  w.seen = malloc((function->blocks.count + 1) * sizeof *w.seen);
  w.stack = malloc((function->blocks.count + 1) * sizeof *w.stack);
  if (!w.seen || !w.stack)
    abort();
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const bp_event *event = bp_event_get(engine, *(uint32_t *)bp_vec_at(&block->events, i));
      if (event->type == BP_EVENT_SPAWN) {
        int number = thread_number(started, event->callee);
        if (number >= 0)
          mark_after(&w, (uint32_t)b, i, UINT32_C(1) << number, analysis->after_spawn);
      } else if (event->type == BP_EVENT_JOIN) {
        size_t before = joined->count;
        int number = thread_number(joined, event->callee);
        if (number >= 0 && joined->count > before)
          mark_before_join(&w, event->callee, UINT32_C(1) << number, analysis->before_join, engine);
      }
    }
  }
  free(w.seen);
  free(w.stack);
}

void bp_compute_threads(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t events = bp_event_count(engine) + 1, functions = engine->functions.count + 1;
  analysis->after_spawn = calloc(events, sizeof *analysis->after_spawn);
  analysis->before_join = calloc(events, sizeof *analysis->before_join);
  analysis->spawned = calloc(functions, sizeof *analysis->spawned);
  analysis->joined = calloc(functions, sizeof *analysis->joined);
  if (!analysis->after_spawn || !analysis->before_join || !analysis->spawned || !analysis->joined)
    abort();
  /* one pass over the events, in order, finds the few functions that start
   * or join threads; only those are walked */
  bool *starts = calloc(functions, sizeof *starts);
  if (!starts)
    abort();
  for (uint32_t id = 0; id + 1 < events; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_SPAWN || event->type == BP_EVENT_JOIN)
      starts[event->function] = true;
  }
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    if (starts[f]) {
      threads_of_function(analysis, f);
    } else {
      bp_vec_init(&analysis->spawned[f], sizeof(uint32_t));
      bp_vec_init(&analysis->joined[f], sizeof(uint32_t));
    }
  }
  free(starts);
}

void bp_free_threads(bp_analysis *analysis) {
  for (uint32_t f = 0; analysis->spawned && f < analysis->engine->functions.count; f++) {
    bp_vec_free(&analysis->spawned[f]);
    bp_vec_free(&analysis->joined[f]);
  }
  free(analysis->spawned);
  free(analysis->joined);
  free(analysis->after_spawn);
  free(analysis->before_join);
}

/* The bit of `thread`'s function name in `names`, or 0. */
static uint32_t thread_bit(const bp_analysis *analysis, const bp_vec *names, uint32_t thread) {
  uint32_t name = ((const bp_function *)bp_vec_at(&analysis->engine->functions, thread))->name;
  for (size_t i = 0; i < names->count; i++) {
    if (*(uint32_t *)bp_vec_at(names, i) == name)
      return UINT32_C(1) << i;
  }
  return 0;
}

bool bp_before_thread(const bp_analysis *analysis, uint32_t event, uint32_t thread) {
  uint32_t function = bp_event_get(analysis->engine, event)->function;
  uint32_t bit = thread_bit(analysis, &analysis->spawned[function], thread);
  return bit && !(analysis->after_spawn[event] & bit);
}

bool bp_after_thread(const bp_analysis *analysis, uint32_t event, uint32_t thread) {
  uint32_t function = bp_event_get(analysis->engine, event)->function;
  uint32_t bit = thread_bit(analysis, &analysis->joined[function], thread);
  return bit && !(analysis->before_join[event] & bit);
}

bool bp_before_all_threads(const bp_analysis *analysis, uint32_t event) {
  const bp_event *access = bp_event_get(analysis->engine, event);
  return analysis->spawned[access->function].count > 0 && analysis->after_spawn[event] == 0;
}
