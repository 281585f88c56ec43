/* Memory nobody else can see yet, decided over the program's calls.
 *
 * What a function publishes of what its parameters point to: what it
 * does not keep to itself (bp_set_keeps_parameter), and what it hands to a
 * function of another unit that publishes it, or to one the program does
 * not define. An allocating function's memory that only calls of other
 * units' functions were handed (bp_set_call_argument) stays unpublished
 * where none of them publishes it (bp_set_unpublished_if_kept). And a
 * parameter whose every call (bp_build_call_graph) hands memory not yet
 * published, the caller's allocation or its own such parameter, is fresh:
 * the function's accesses to it before it publishes it are unpublished
 * (bp_set_unpublished_if_fresh), the set-up of an object by an
 * initialiser of another function or file. Memory that a call of another
 * unit's function returned is fresh as an allocation is where every
 * definition of that function returns fresh memory (bp_set_returns_fresh,
 * bp_set_allocation_source). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef uint16_t parameter_set; /* bit j: parameter j, j < BP_UNPUBLISHED_PARAMETERS */

#define ALL_PARAMETERS ((parameter_set)((1u << BP_UNPUBLISHED_PARAMETERS) - 1))
#define NOT_KEPT_WORDS ((BP_UNPUBLISHED_ALLOCATIONS + 63) / 64)

static unsigned argument_code(const bp_event *event, unsigned argument) {
  return (unsigned)(event->call_arguments >> (8 * argument)) & 255;
}

static bool is_parameter(unsigned code) {
  code &= ~BP_ARGUMENT_UNPUBLISHED;
  return code >= 2 && code < 2 + BP_UNPUBLISHED_PARAMETERS;
}

static bool is_allocation(unsigned code) {
  return (code & ~BP_ARGUMENT_UNPUBLISHED) >= 16;
}

/* The program's definitions of the functions a call may run, by name, and
 * the functions stored into each function-pointer field (bp_field_take
 * indexes, by the field's name; a field some unit may store other
 * functions into is open). */
typedef struct {
  const bp_engine *engine;
  uint32_t *by_name, *next;
  uint32_t *by_field, *next_take;
  bool *open;
} definitions;

static void find_definitions(const bp_engine *engine, definitions *d) {
  size_t names = engine->names.strings.count, functions = engine->functions.count;
  size_t takes = engine->field_taken.count;
  d->engine = engine;
  d->by_name = malloc((names + 1) * sizeof *d->by_name);
  d->next = malloc((functions + 1) * sizeof *d->next);
  d->by_field = malloc((names + 1) * sizeof *d->by_field);
  d->next_take = malloc((takes + 1) * sizeof *d->next_take);
  d->open = calloc(names + 1, sizeof *d->open);
  if (!d->by_name || !d->next || !d->by_field || !d->next_take || !d->open)
    abort();
  for (size_t n = 0; n < names; n++)
    d->by_name[n] = d->by_field[n] = BP_NO_FUNCTION;
  for (uint32_t f = (uint32_t)functions; f-- > 0;) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    d->next[f] = d->by_name[function->name];
    d->by_name[function->name] = f;
  }
  for (uint32_t t = (uint32_t)takes; t-- > 0;) {
    const bp_field_take *take = bp_vec_at(&engine->field_taken, t);
    d->next_take[t] = d->by_field[take->field];
    d->by_field[take->field] = t;
  }
  for (size_t i = 0; i < engine->field_opens.count; i++)
    d->open[*(uint32_t *)bp_vec_at(&engine->field_opens, i)] = true;
}

static void free_definitions(definitions *d) {
  free(d->by_name);
  free(d->next);
  free(d->by_field);
  free(d->next_take);
  free(d->open);
}

static const bp_function *function_at(const definitions *d, uint32_t f) {
  return bp_vec_at(&d->engine->functions, f);
}

/* Whether a call of the function named `name` from unit `unit` may publish
 * what its argument `argument` points to, as `publishes` says so far: its
 * definitions in that unit, or else every one of the program's; a function
 * the program does not define publishes it. */
static bool named_call_publishes(const definitions *d, uint32_t name, uint32_t unit,
                                 unsigned argument, const parameter_set *publishes) {
  bool own_unit = false, defined = false;
  for (uint32_t f = d->by_name[name]; f != BP_NO_FUNCTION && !own_unit; f = d->next[f])
    own_unit = function_at(d, f)->unit == unit;
  for (uint32_t f = d->by_name[name]; f != BP_NO_FUNCTION; f = d->next[f]) {
    if (own_unit && function_at(d, f)->unit != unit)
      continue;
    defined = true;
    if (publishes[f] & (1u << argument))
      return true;
  }
  return !defined;
}

/* Whether call `event` may publish what its argument `argument` points to,
 * as `publishes` says so far: its callee's definitions, or, for a call
 * through a function-pointer field that no unit stores into but its
 * initializers, every function they store there (its unit's `static` one
 * of that name, or the program's). A call through any other field (whose
 * functions code may also store at run time) publishes it. */
static bool call_publishes(const definitions *d, const bp_event *event, unsigned argument,
                           const parameter_set *publishes) {
  if (argument >= BP_UNPUBLISHED_PARAMETERS)
    return true;
  uint32_t field_take = d->by_field[event->callee];
  if (field_take == BP_NO_FUNCTION)
    return named_call_publishes(d, event->callee, function_at(d, event->function)->unit, argument,
                                publishes);
  if (d->open[event->callee])
    return true;
  for (uint32_t t = field_take; t != BP_NO_FUNCTION; t = d->next_take[t]) {
    const bp_field_take *take = bp_vec_at(&d->engine->field_taken, t);
    if (named_call_publishes(d, take->function, take->unit, argument, publishes))
      return true;
  }
  return false;
}

/* Least: what each function publishes, its calls' callees' included.
 * `calls`: the calls that hand memory over (uint32_t event ids). */
static parameter_set *find_publications(const bp_engine *engine, const definitions *d,
                                        const bp_vec *calls) {
  size_t function_count = engine->functions.count;
  parameter_set *publishes = malloc((function_count + 1) * sizeof *publishes);
  if (!publishes)
    abort();
  for (uint32_t f = 0; f < function_count; f++)
    publishes[f] = ALL_PARAMETERS & ~((const bp_function *)bp_vec_at(&engine->functions, f))->keeps;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t c = 0; c < calls->count; c++) {
      const bp_event *event = bp_event_get(engine, *(uint32_t *)bp_vec_at(calls, c));
      for (unsigned argument = 0; argument < BP_UNPUBLISHED_ARGUMENTS; argument++) {
        unsigned code = argument_code(event, argument);
        if (!is_parameter(code))
          continue;
        parameter_set bit = (parameter_set)(1u << ((code & ~BP_ARGUMENT_UNPUBLISHED) - 2));
        if (!(publishes[event->function] & bit) && call_publishes(d, event, argument, publishes)) {
          publishes[event->function] |= bit;
          changed = true;
        }
      }
    }
  }
  return publishes;
}

/* A call that may publish allocations of its function, as a mask. */
typedef struct {
  uint32_t event;
  uint64_t allocations[NOT_KEPT_WORDS];
} publishing_call;

/* Per function, the allocations one of its calls may publish; each such
 * call to `publishing` (publishing_call), in the order of the calls. */
static uint64_t *find_published_allocations(const bp_engine *engine, const definitions *d,
                                            const bp_vec *calls, const parameter_set *publishes,
                                            bp_vec *publishing) {
  uint64_t *not_kept = calloc((engine->functions.count + 1) * NOT_KEPT_WORDS, sizeof *not_kept);
  if (!not_kept)
    abort();
  for (size_t c = 0; c < calls->count; c++) {
    uint32_t id = *(uint32_t *)bp_vec_at(calls, c);
    const bp_event *event = bp_event_get(engine, id);
    publishing_call found = {id, {0}};
    bool any = false;
    for (unsigned argument = 0; argument < BP_UNPUBLISHED_ARGUMENTS; argument++) {
      unsigned code = argument_code(event, argument);
      if (!is_allocation(code) || !call_publishes(d, event, argument, publishes))
        continue;
      unsigned allocation = (code & ~BP_ARGUMENT_UNPUBLISHED) - 16;
      uint64_t bit = UINT64_C(1) << (allocation % 64);
      not_kept[(size_t)event->function * NOT_KEPT_WORDS + allocation / 64] |= bit;
      found.allocations[allocation / 64] |= bit;
      any = true;
    }
    if (any)
      *(publishing_call *)bp_vec_push(publishing) = found;
  }
  return not_kept;
}

static int compare_publishing(const void *a, const void *b) {
  uint32_t x = ((const publishing_call *)a)->event, y = ((const publishing_call *)b)->event;
  return (x > y) - (x < y);
}

static const publishing_call *publishing_at(const bp_vec *publishing, uint32_t event) {
  publishing_call key = {event, {0}};
  return bsearch(&key, publishing->items, publishing->count, sizeof key, compare_publishing);
}

/* By function name: 1 where every definition returns fresh memory
 * (bp_set_returns_fresh), 2 where one does not, 0 where none is defined. */
static uint8_t *find_fresh_returns(const bp_engine *engine) {
  uint8_t *state = calloc(engine->names.strings.count + 1, 1);
  if (!state)
    abort();
  for (size_t f = 0; f < engine->functions.count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (!function->returns_fresh)
      state[function->name] = 2;
    else if (!state[function->name])
      state[function->name] = 1;
  }
  return state;
}

/* The memory of access `event`'s allocation is fresh as it was made: the
 * function's own allocation, or what a call of an allocator of another
 * unit returned (bp_set_allocation_source). */
static bool source_fresh(const bp_engine *engine, const uint8_t *fresh_returns,
                         const bp_event *event) {
  return !*bp_interner_get(&engine->names, event->allocation_source) ||
         fresh_returns[event->allocation_source] == 1;
}

/* An access that only calls of other units' functions may have published
 * (bp_set_unpublished_if_kept) is unpublished where no call that publishes
 * its allocation comes before it on a way through its function: a later
 * registration (`list_add_rcu()` of another unit after the set-up) does
 * not publish the set-up before it. A may-analysis over the blocks, loops
 * included. `publishing` is sorted by event. */
static void mark_unpublished_before(bp_engine *engine, uint32_t function, const bp_vec *publishing,
                                    const uint8_t *fresh_returns) {
  const bp_function *f = bp_vec_at(&engine->functions, function);
  size_t blocks = f->blocks.count;
  uint64_t *in = calloc((blocks + 1) * NOT_KEPT_WORDS, sizeof *in);
  uint64_t *gen = calloc((blocks + 1) * NOT_KEPT_WORDS, sizeof *gen);
  if (!in || !gen)
    abort();
  for (size_t b = 0; b < blocks; b++) {
    const bp_block *block = bp_vec_at(&f->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const publishing_call *call =
          publishing_at(publishing, *(uint32_t *)bp_vec_at(&block->events, i));
      for (size_t w = 0; call && w < NOT_KEPT_WORDS; w++)
        gen[b * NOT_KEPT_WORDS + w] |= call->allocations[w];
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < blocks; b++) {
      const bp_block *block = bp_vec_at(&f->blocks, b);
      for (size_t s = 0; s < block->successors.count; s++) {
        uint32_t next = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
        if (next >= blocks)
          continue;
        for (size_t w = 0; w < NOT_KEPT_WORDS; w++) {
          uint64_t out = in[b * NOT_KEPT_WORDS + w] | gen[b * NOT_KEPT_WORDS + w];
          if (out & ~in[next * NOT_KEPT_WORDS + w]) {
            in[next * NOT_KEPT_WORDS + w] |= out;
            changed = true;
          }
        }
      }
    }
  }
  for (size_t b = 0; b < blocks; b++) {
    const bp_block *block = bp_vec_at(&f->blocks, b);
    uint64_t now[NOT_KEPT_WORDS];
    memcpy(now, &in[b * NOT_KEPT_WORDS], sizeof now);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      bp_event *event = bp_vec_at(&engine->events, id);
      if (event->unpublished_allocation && !event->unpublished &&
          source_fresh(engine, fresh_returns, event)) {
        unsigned allocation = event->unpublished_allocation - 1u;
        if (!(now[allocation / 64] & (UINT64_C(1) << (allocation % 64))))
          event->unpublished = true;
      }
      const publishing_call *call = publishing_at(publishing, id);
      for (size_t w = 0; call && w < NOT_KEPT_WORDS; w++)
        now[w] |= call->allocations[w];
    }
  }
  free(in);
  free(gen);
}

static bool kept(const uint64_t *not_kept, uint32_t function, unsigned allocation) {
  return !(not_kept[(size_t)function * NOT_KEPT_WORDS + allocation / 64] &
           (UINT64_C(1) << (allocation % 64)));
}

/* The parameters of the callee that call `event` hands unpublished memory,
 * where its caller's own parameters are unpublished as `caller_fresh` says. */
static parameter_set handed_unpublished(const bp_event *event, parameter_set caller_fresh,
                                        const uint64_t *not_kept) {
  if (event->type != BP_EVENT_CALL)
    return 0; /* a thread's start hands its argument to another thread */
  parameter_set handed = 0;
  for (unsigned argument = 0; argument < BP_UNPUBLISHED_ARGUMENTS; argument++) {
    unsigned code = argument_code(event, argument);
    bool unpublished = code & BP_ARGUMENT_UNPUBLISHED;
    code &= ~BP_ARGUMENT_UNPUBLISHED;
    bool fresh = false;
    if (code >= 16)
      fresh = unpublished || kept(not_kept, event->function, code - 16);
    else if (code >= 2)
      fresh = unpublished && (caller_fresh & (1u << (code - 2)));
    if (fresh)
      handed |= (parameter_set)(1u << argument);
  }
  return handed;
}

/* Greatest: the parameters every call agrees are fresh. */
static parameter_set *find_fresh_parameters(const bp_engine *engine, const uint64_t *not_kept) {
  size_t function_count = engine->functions.count;
  bp_call_graph graph;
  bp_build_call_graph(engine, &graph);
  parameter_set *fresh = malloc((function_count + 1) * sizeof *fresh);
  if (!fresh)
    abort();
  for (uint32_t f = 0; f < function_count; f++)
    fresh[f] = graph.known[f] ? ALL_PARAMETERS : 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t c = 0; c < graph.calls.count; c++) {
      const bp_call_edge *edge = bp_vec_at(&graph.calls, c);
      const bp_event *call = bp_event_get(engine, edge->event);
      parameter_set left =
          fresh[edge->callee] & handed_unpublished(call, fresh[call->function], not_kept);
      if (left != fresh[edge->callee]) {
        fresh[edge->callee] = left;
        changed = true;
      }
    }
  }
  bp_free_call_graph(&graph);
  return fresh;
}

void bp_resolve_fresh_parameters(bp_engine *engine) {
  size_t event_count = bp_event_count(engine);
  bool any = false;
  for (uint32_t id = 0; id < event_count && !any; id++) {
    const bp_event *event = bp_event_get(engine, id);
    any = event->unpublished_parameter || event->unpublished_allocation;
  }
  if (!any)
    return;
  bp_vec calls;
  bp_vec_init(&calls, sizeof(uint32_t));
  for (uint32_t id = 0; id < event_count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_CALL && event->function != BP_NO_FUNCTION &&
        event->call_arguments != 0)
      *(uint32_t *)bp_vec_push(&calls) = id;
  }
  definitions d;
  find_definitions(engine, &d);
  parameter_set *publishes = find_publications(engine, &d, &calls);
  bp_vec publishing;
  bp_vec_init(&publishing, sizeof(publishing_call));
  uint64_t *not_kept = find_published_allocations(engine, &d, &calls, publishes, &publishing);
  free(publishes);
  free_definitions(&d);
  bp_vec_free(&calls);
  parameter_set *fresh = find_fresh_parameters(engine, not_kept);
  uint8_t *fresh_returns = find_fresh_returns(engine);
  for (uint32_t id = 0; id < event_count; id++) {
    bp_event *event = bp_vec_at(&engine->events, id);
    if (event->function == BP_NO_FUNCTION)
      continue;
    if ((event->unpublished_parameter &&
         (fresh[event->function] & (1u << (event->unpublished_parameter - 1)))) ||
        (event->unpublished_allocation &&
         kept(not_kept, event->function, event->unpublished_allocation - 1u) &&
         source_fresh(engine, fresh_returns, event)))
      event->unpublished = true;
  }
  /* the functions with a publishing call, each once */
  qsort(publishing.items, publishing.count, sizeof(publishing_call), compare_publishing);
  uint32_t last = BP_NO_FUNCTION;
  bool *done = calloc(engine->functions.count + 1, sizeof *done);
  if (!done)
    abort();
  for (size_t c = 0; c < publishing.count; c++) {
    uint32_t function =
        bp_event_get(engine, ((publishing_call *)bp_vec_at(&publishing, c))->event)->function;
    if (function != last && !done[function]) {
      mark_unpublished_before(engine, function, &publishing, fresh_returns);
      done[function] = true;
    }
    last = function;
  }
  free(done);
  bp_vec_free(&publishing);
  free(fresh_returns);
  free(fresh);
  free(not_kept);
}
