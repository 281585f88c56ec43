/* Memory a function is handed before anybody else can see it: a
 * parameter whose every call (bp_build_call_graph) passes memory the
 * caller has just allocated, or its own such parameter, and has not
 * published yet (bp_set_call_argument_unpublished). The function's
 * accesses to it before it publishes it (bp_set_unpublished_if_fresh) are
 * then unpublished, as an allocating function's own are: the set-up of an
 * object by an initialiser of another function or file. */
#include "internal.h"

#include <stdlib.h>

typedef uint16_t parameter_set; /* bit j: parameter j, j < BP_UNPUBLISHED_PARAMETERS */

#define ALL_PARAMETERS ((parameter_set)((1u << BP_UNPUBLISHED_PARAMETERS) - 1))

/* The parameters of the callee that call `event` hands unpublished memory,
 * where its caller's own parameters are unpublished as `caller_fresh` says. */
static parameter_set handed_unpublished(const bp_event *event, parameter_set caller_fresh) {
  if (event->type != BP_EVENT_CALL)
    return 0; /* a thread's start hands its argument to another thread */
  parameter_set handed = 0;
  for (unsigned argument = 0;
       argument < BP_UNPUBLISHED_ARGUMENTS && argument < BP_UNPUBLISHED_PARAMETERS; argument++) {
    unsigned state = (unsigned)(event->unpublished_arguments >> (4 * argument)) & 15;
    if (state == 1 || (state >= 2 && (caller_fresh & (1u << (state - 2)))))
      handed |= (parameter_set)(1u << argument);
  }
  return handed;
}

void bp_resolve_fresh_parameters(bp_engine *engine) {
  size_t function_count = engine->functions.count, event_count = bp_event_count(engine);
  bool any = false;
  for (uint32_t id = 0; id < event_count && !any; id++)
    any = bp_event_get(engine, id)->unpublished_parameter != 0;
  if (!any)
    return;
  bp_call_graph graph;
  bp_build_call_graph(engine, &graph);
  parameter_set *fresh = malloc((function_count + 1) * sizeof *fresh);
  if (!fresh)
    abort();
  for (uint32_t f = 0; f < function_count; f++)
    fresh[f] = graph.known[f] ? ALL_PARAMETERS : 0;
  /* the greatest set every call agrees with: each round only takes away */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t c = 0; c < graph.calls.count; c++) {
      const bp_call_edge *edge = bp_vec_at(&graph.calls, c);
      const bp_event *call = bp_event_get(engine, edge->event);
      parameter_set kept = fresh[edge->callee] & handed_unpublished(call, fresh[call->function]);
      if (kept != fresh[edge->callee]) {
        fresh[edge->callee] = kept;
        changed = true;
      }
    }
  }
  for (uint32_t id = 0; id < event_count; id++) {
    bp_event *event = bp_vec_at(&engine->events, id);
    if (event->unpublished_parameter && event->function != BP_NO_FUNCTION &&
        (fresh[event->function] & (1u << (event->unpublished_parameter - 1))))
      event->unpublished = true;
  }
  free(fresh);
  bp_free_call_graph(&graph);
}
