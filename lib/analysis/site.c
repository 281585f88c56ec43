/* The accesses before or after an event of a function, over its control
 * flow: what a barrier can order. */
#include "analysis/analysis.h"

#include <stdlib.h>

typedef struct {
  const bp_function *function;
  uint32_t block, index;
} place;

static place find_event(const bp_engine *engine, uint32_t event) {
  const bp_event *e = bp_event_get(engine, event);
  const bp_function *function = bp_vec_at(&engine->functions, e->function);
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      if (*(uint32_t *)bp_vec_at(&block->events, i) == event)
        return (place){function, (uint32_t)b, (uint32_t)i};
    }
  }
  abort(); /* every event is in a block of its function */
}

static void add_accesses(const bp_engine *engine, const bp_block *block, size_t from, size_t to,
                         bool calls, bp_vec *accesses) {
  for (size_t i = from; i < to; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_ACCESS ||
        (calls && event->type == BP_EVENT_CALL && !event->inlined))
      *(uint32_t *)bp_vec_push(accesses) = id;
  }
}

static void collect_around(const bp_engine *engine, uint32_t event, bool after, bool calls,
                           bp_vec *accesses) {
  place start = find_event(engine, event);
  const bp_function *function = start.function;
  size_t block_count = function->blocks.count;
  /* Edges to follow: successors going forward, predecessors going back. */
  bp_vec *edges = malloc(block_count * sizeof *edges);
  bool *seen = calloc(block_count, sizeof *seen);
  uint32_t *stack = malloc(block_count * sizeof *stack);
  if (!edges || !seen || !stack)
    abort();
  for (size_t b = 0; b < block_count; b++)
    bp_vec_init(&edges[b], sizeof(uint32_t));
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
      if (after)
        *(uint32_t *)bp_vec_push(&edges[b]) = successor;
      else
        *(uint32_t *)bp_vec_push(&edges[successor]) = (uint32_t)b;
    }
  }
  const bp_block *first = bp_vec_at(&function->blocks, start.block);
  if (after)
    add_accesses(engine, first, start.index + 1, first->events.count, calls, accesses);
  else
    add_accesses(engine, first, 0, start.index, calls, accesses);
  /* Blocks are marked when pushed, so the stack never holds one twice. */
  size_t depth = 0;
  uint32_t from = start.block;
  for (;;) {
    for (size_t e = 0; e < edges[from].count; e++) {
      uint32_t next = *(uint32_t *)bp_vec_at(&edges[from], e);
      if (!seen[next]) {
        seen[next] = true;
        stack[depth++] = next;
      }
    }
    if (!depth)
      break;
    from = stack[--depth];
    const bp_block *block = bp_vec_at(&function->blocks, from);
    add_accesses(engine, block, 0, block->events.count, calls, accesses);
  }
  for (size_t b = 0; b < block_count; b++)
    bp_vec_free(&edges[b]);
  free(edges);
  free(seen);
  free(stack);
}

void bp_accesses_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *accesses) {
  collect_around(engine, event, after, false, accesses);
}

void bp_events_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *events) {
  collect_around(engine, event, after, true, events);
}
