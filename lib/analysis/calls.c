/* Calls of functions whose code is not lowered where they are called (a
 * function of another file, or past the depth calls are followed): where
 * the program holds the function and it orders, the call is an ordering
 * point whose strength the analysis does not know. mimalloc's
 * `_mi_segment_cache_push()` claims its cache slot through
 * `_mi_bitmap_try_find_from_claim()` in bitmap.c, a compare-and-swap loop:
 * its loads before the claim and its stores after it are not "ordered by
 * nothing". */
#include "analysis/analysis.h"

#include <stdlib.h>

bool *bp_find_ordering_calls(const bp_engine *engine) {
  size_t event_count = bp_event_count(engine);
  bool *ordering = calloc(event_count + 1, sizeof *ordering);
  /* per function name: one of the functions of that name orders */
  bool *name_orders = calloc(engine->names.strings.count + 1, sizeof *name_orders);
  if (!ordering || !name_orders)
    abort();
  for (uint32_t id = 0; id < event_count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    /* a barrier the code wrote or an ordering atomic, not a default order */
    if (event->function != BP_NO_FUNCTION && bp_is_barrier(engine, id) &&
        !bp_barrier_by_default(engine, id)) {
      const bp_function *function = bp_vec_at(&engine->functions, event->function);
      name_orders[function->name] = true;
    }
  }
  /* a function that calls one that orders orders too */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t id = 0; id < event_count; id++) {
      const bp_event *event = bp_event_get(engine, id);
      if (event->type != BP_EVENT_CALL || event->inlined || !name_orders[event->callee])
        continue;
      const bp_function *function = bp_vec_at(&engine->functions, event->function);
      if (!name_orders[function->name])
        changed = name_orders[function->name] = true;
    }
  }
  for (uint32_t id = 0; id < event_count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    ordering[id] = event->type == BP_EVENT_CALL && !event->inlined && name_orders[event->callee];
  }
  free(name_orders);
  return ordering;
}
