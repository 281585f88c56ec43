/* Per function: for every access, what orders it before each access it can
 * reach. Over one path the barriers add up; over several paths only what
 * every path orders counts (a meet), so a barrier on one branch only does not
 * order the accesses around the branch. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define UNREACHED 0xffu

typedef struct {
  unsigned strength;
  uint32_t barrier;
} path_state;

typedef struct {
  const bp_engine *engine;
  const bp_function *function;
  uint32_t first_event; /* a function's events have contiguous ids */
  path_state *block_in; /* per block */
  path_state *reached;  /* per event of the function */
  uint32_t *worklist;
  bool *queued;
  size_t worklist_count;
} propagation;

static bool meet(path_state *into, path_state incoming) {
  if (into->strength == UNREACHED) {
    *into = incoming;
    return true;
  }
  unsigned strength = into->strength & incoming.strength;
  if (strength == into->strength)
    return false;
  /* keep the barrier of the weaker path: that is the one to report */
  into->barrier = incoming.strength < into->strength ? incoming.barrier : into->barrier;
  into->strength = strength;
  return true;
}

static void walk_block(propagation *p, uint32_t block_index, size_t start, path_state state) {
  const bp_block *block = bp_vec_at(&p->function->blocks, block_index);
  for (size_t i = start; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(p->engine, id);
    if (event->type == BP_EVENT_ACCESS) {
      meet(&p->reached[id - p->first_event], state);
    } else if (event->strength) {
      state.strength |= event->strength;
      state.barrier = id;
    }
  }
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
    if (successor & BP_LOOP_EDGE)
      continue; /* orders within one iteration only */
    if (meet(&p->block_in[successor], state) && !p->queued[successor]) {
      p->queued[successor] = true;
      p->worklist[p->worklist_count++] = successor;
    }
  }
}

static int compare_orderings(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->first_kind, b->first_kind);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->second_kind, b->second_kind);
  BP_COMPARE(a->strength, b->strength);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

static void add_reached_orderings(const propagation *p, uint32_t function_index, uint32_t source,
                                  size_t event_count, bp_vec *out) {
  const bp_event *from = bp_event_get(p->engine, source);
  for (size_t local = 0; local < event_count; local++) {
    if (p->reached[local].strength == UNREACHED)
      continue;
    uint32_t id = p->first_event + (uint32_t)local;
    const bp_event *to = bp_event_get(p->engine, id);
    if (to->object == from->object)
      continue;
    bp_ordering *ordering = bp_vec_push(out);
    ordering->function = function_index;
    ordering->first = source;
    ordering->second = id;
    ordering->first_object = from->object;
    ordering->second_object = to->object;
    ordering->first_kind = from->kind;
    ordering->second_kind = to->kind;
    ordering->strength = p->reached[local].strength;
    ordering->barrier = p->reached[local].strength ? p->reached[local].barrier : BP_NO_EVENT;
  }
}

/* Keeps one ordering per (object, kind, object, kind): the weakest, which
 * sorts first. */
static void append_weakest(bp_vec *all, bp_vec *out) {
  if (all->count == 0)
    return;
  qsort(all->items, all->count, sizeof(bp_ordering), compare_orderings);
  const bp_ordering *previous = NULL;
  for (size_t i = 0; i < all->count; i++) {
    const bp_ordering *ordering = bp_vec_at(all, i);
    if (previous && previous->first_object == ordering->first_object &&
        previous->first_kind == ordering->first_kind &&
        previous->second_object == ordering->second_object &&
        previous->second_kind == ordering->second_kind)
      continue;
    *(bp_ordering *)bp_vec_push(out) = *ordering;
    previous = ordering;
  }
}

void bp_collect_orderings(const bp_engine *engine, uint32_t function_index, bp_vec *orderings) {
  const bp_function *function = bp_vec_at(&engine->functions, function_index);
  size_t block_count = function->blocks.count;
  uint32_t first_event = UINT32_MAX, last_event = 0;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      first_event = id < first_event ? id : first_event;
      last_event = id > last_event ? id : last_event;
    }
  }
  if (first_event == UINT32_MAX)
    return;
  size_t event_count = last_event - first_event + 1;

  propagation p = {.engine = engine, .function = function, .first_event = first_event};
  p.block_in = malloc(block_count * sizeof *p.block_in);
  p.reached = malloc(event_count * sizeof *p.reached);
  p.worklist = malloc(block_count * sizeof *p.worklist);
  p.queued = malloc(block_count * sizeof *p.queued);
  if (!p.block_in || !p.reached || !p.worklist || !p.queued)
    abort();

  bp_vec all;
  bp_vec_init(&all, sizeof(bp_ordering));
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t source = *(uint32_t *)bp_vec_at(&block->events, i);
      if (bp_event_get(engine, source)->type != BP_EVENT_ACCESS)
        continue;
      for (size_t k = 0; k < block_count; k++) {
        p.block_in[k] = (path_state){UNREACHED, BP_NO_EVENT};
        p.queued[k] = false;
      }
      for (size_t k = 0; k < event_count; k++)
        p.reached[k] = (path_state){UNREACHED, BP_NO_EVENT};
      p.worklist_count = 0;
      walk_block(&p, (uint32_t)b, i + 1, (path_state){0, BP_NO_EVENT});
      while (p.worklist_count) {
        uint32_t next = p.worklist[--p.worklist_count];
        p.queued[next] = false;
        walk_block(&p, next, 0, p.block_in[next]);
      }
      add_reached_orderings(&p, function_index, source, event_count, &all);
    }
  }
  append_weakest(&all, orderings);
  bp_vec_free(&all);
  free(p.block_in);
  free(p.reached);
  free(p.worklist);
  free(p.queued);
}
