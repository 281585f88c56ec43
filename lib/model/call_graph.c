/* The program's calls whose callee's every call the program shows: a call
 * or thread start that names a function with known callers
 * (bp_set_callers), and a call through a function-pointer field of the
 * functions stored there (bp_add_field_taken). What runs in a function on
 * entry (the locks held, memory not yet published) is then what holds at
 * all of them. */
#include "internal.h"

#include <stdlib.h>

/* The function of name `name` that a call or thread start of unit `unit`
 * names, or a field's record of that unit stores, when its callers are all
 * known: a `static` one of that unit, or else an external one of the
 * program (one of them, where builds define it more than once: the others
 * are never met, and hold nothing); BP_NO_FUNCTION otherwise. `by_name`
 * and `next` list the functions whose callers are known, by name. */
static uint32_t known_function(const bp_engine *engine, uint32_t name, uint32_t unit,
                               const uint32_t *by_name, const uint32_t *next) {
  uint32_t external = BP_NO_FUNCTION;
  for (uint32_t f = by_name[name]; f != BP_NO_FUNCTION; f = next[f]) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (function->callers == BP_CALLERS_IN_UNIT && function->unit == unit)
      return f;
    if (function->callers == BP_CALLERS_IN_PROGRAM)
      external = f;
  }
  return external;
}

void bp_build_call_graph(const bp_engine *engine, bp_call_graph *graph) {
  size_t function_count = engine->functions.count, name_count = engine->names.strings.count;
  bp_vec_init(&graph->calls, sizeof(bp_call_edge));
  graph->known = calloc(function_count + 1, sizeof *graph->known);
  graph->calling = calloc(function_count + 1, sizeof *graph->calling);
  uint32_t *by_name = malloc((name_count + 1) * sizeof *by_name);
  uint32_t *same_name = malloc((function_count + 1) * sizeof *same_name);
  /* an address another unit takes: called from anywhere */
  bool *taken = calloc(name_count + 1, sizeof *taken);
  if (!graph->known || !graph->calling || !by_name || !same_name || !taken)
    abort();
  bool *known = graph->known;
  for (size_t n = 0; n < name_count; n++)
    by_name[n] = BP_NO_FUNCTION;
  for (size_t i = 0; i < engine->address_taken.count; i++)
    taken[*(uint32_t *)bp_vec_at(&engine->address_taken, i)] = true;
  bool any_known = false;
  for (uint32_t f = 0; f < function_count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (function->callers == BP_CALLERS_UNKNOWN ||
        (function->callers == BP_CALLERS_IN_PROGRAM && taken[function->name]))
      continue;
    same_name[f] = by_name[function->name];
    by_name[function->name] = f;
    known[f] = any_known = true;
  }
  /* the functions stored into a function-pointer field, by the field's
   * name: they run where code calls through it, unless some unit keeps or
   * hands on the field's value (then they may run anywhere) */
  bool *escapes = calloc(name_count + 1, sizeof *escapes);
  uint32_t *by_field = malloc((name_count + 1) * sizeof *by_field);
  size_t take_count = engine->field_taken.count;
  uint32_t *field_next = malloc((take_count + 1) * sizeof *field_next);
  uint32_t *field_function = malloc((take_count + 1) * sizeof *field_function);
  if (!escapes || !by_field || !field_next || !field_function)
    abort();
  for (size_t i = 0; i < engine->field_escapes.count; i++)
    escapes[*(uint32_t *)bp_vec_at(&engine->field_escapes, i)] = true;
  for (size_t n = 0; n < name_count; n++)
    by_field[n] = BP_NO_FUNCTION;
  for (size_t i = 0; i < take_count; i++) {
    const bp_field_take *take = bp_vec_at(&engine->field_taken, i);
    /* its unit's `static` one of that name, or the program's external one */
    uint32_t f = known_function(engine, take->function, take->unit, by_name, same_name);
    if (f != BP_NO_FUNCTION && escapes[take->field]) {
      known[f] = false;
      f = BP_NO_FUNCTION;
    }
    field_function[i] = f;
    field_next[i] = by_field[take->field];
    by_field[take->field] = (uint32_t)i;
  }
  free(taken);
  free(escapes);
  /* the calls of those functions (a call through a field, one to each
   * function stored there), and the functions that make them */
  size_t event_count = bp_event_count(engine);
  for (uint32_t id = 0; any_known && id < event_count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if ((event->type != BP_EVENT_CALL && event->type != BP_EVENT_SPAWN) ||
        event->function == BP_NO_FUNCTION)
      continue;
    const bp_function *caller = bp_vec_at(&engine->functions, event->function);
    uint32_t callee = known_function(engine, event->callee, caller->unit, by_name, same_name);
    if (callee != BP_NO_FUNCTION)
      *(bp_call_edge *)bp_vec_push(&graph->calls) = (bp_call_edge){id, callee};
    if (event->type == BP_EVENT_CALL && event->callee < name_count)
      for (uint32_t t = by_field[event->callee]; t != BP_NO_FUNCTION; t = field_next[t])
        if (field_function[t] != BP_NO_FUNCTION && known[field_function[t]])
          *(bp_call_edge *)bp_vec_push(&graph->calls) = (bp_call_edge){id, field_function[t]};
  }
  free(by_field);
  free(field_next);
  free(field_function);
  free(by_name);
  free(same_name);
  /* met at a call at least: a function no call reaches is an entry */
  bool *called = calloc(function_count + 1, sizeof *called);
  if (!called)
    abort();
  for (size_t c = 0; c < graph->calls.count; c++) {
    const bp_call_edge *edge = bp_vec_at(&graph->calls, c);
    called[edge->callee] = true;
    graph->calling[bp_event_get(engine, edge->event)->function] = true;
  }
  for (uint32_t f = 0; f < function_count; f++)
    known[f] = known[f] && called[f];
  free(called);
}

void bp_free_call_graph(bp_call_graph *graph) {
  bp_vec_free(&graph->calls);
  free(graph->known);
  free(graph->calling);
}

/* The function a call of unit `unit` to `name` runs: the unit's own
 * definition of that name, else the one definition of another unit that
 * is not `static` (none where there are several; a `static` one whose
 * address its unit takes has unknown callers, and counts as external). */
static uint32_t defined_callee(const bp_engine *engine, uint32_t name, uint32_t unit,
                               const uint32_t *by_name, const uint32_t *next) {
  uint32_t elsewhere = BP_NO_FUNCTION;
  size_t others = 0;
  for (uint32_t f = by_name[name]; f != BP_NO_FUNCTION; f = next[f]) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (function->unit == unit)
      return f;
    if (function->callers != BP_CALLERS_IN_UNIT) {
      elsewhere = f;
      others++;
    }
  }
  return others == 1 ? elsewhere : BP_NO_FUNCTION;
}

void bp_build_direct_calls(const bp_engine *engine, bp_vec *calls) {
  size_t function_count = engine->functions.count, name_count = engine->names.strings.count;
  bp_vec_init(calls, sizeof(bp_call_edge));
  uint32_t *by_name = malloc((name_count + 1) * sizeof *by_name);
  uint32_t *same_name = malloc((function_count + 1) * sizeof *same_name);
  if (!by_name || !same_name)
    abort();
  for (size_t n = 0; n < name_count; n++)
    by_name[n] = BP_NO_FUNCTION;
  for (uint32_t f = 0; f < function_count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    same_name[f] = by_name[function->name];
    by_name[function->name] = f;
  }
  size_t event_count = bp_event_count(engine);
  for (uint32_t id = 0; id < event_count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_CALL || event->function == BP_NO_FUNCTION ||
        event->callee >= name_count)
      continue;
    const bp_function *caller = bp_vec_at(&engine->functions, event->function);
    uint32_t callee = defined_callee(engine, event->callee, caller->unit, by_name, same_name);
    if (callee != BP_NO_FUNCTION && callee != event->function)
      *(bp_call_edge *)bp_vec_push(calls) = (bp_call_edge){id, callee};
  }
  free(by_name);
  free(same_name);
}
