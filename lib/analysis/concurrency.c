/* Which functions can run at the same time, from what the code itself says
 * (OFence's insight: barriers work in pairs, so a pair of barriers says that
 * its two functions run concurrently). Evidence is:
 *
 * - a pairing of barriers: one function orders X before Y with a barrier,
 *   the other Y before X with one;
 * - the entries of threads the program starts;
 * - marked accesses (CMM_LOAD_SHARED, READ_ONCE, atomics): the programmer
 *   said "this races".
 *
 * A function with no barrier, no marked access and no thread start naming
 * it has none, and takes part in no pairing. */
#include "analysis/analysis.h"

#include <stdlib.h>

typedef struct {
  uint32_t first, second; /* functions, first < second */
} function_pair;

typedef struct {
  uint32_t function, object;
} function_object;

struct bp_concurrency {
  function_object *plain_loads; /* sorted, unique */
  size_t plain_load_count;
  function_object *stores; /* sorted, unique */
  size_t store_count;
  function_object *plain_stores; /* sorted, unique */
  size_t plain_store_count;
  bool *may_race;     /* per function: a barrier, a marked access or a thread entry */
  bool *thread_entry; /* per function: some thread start names it */
  function_pair *partners;
  size_t partner_count, partner_capacity;
  bool partners_sorted;
};

void bp_free_concurrency(bp_analysis *analysis) {
  struct bp_concurrency *c = analysis->concurrency;
  if (!c)
    return;
  free(c->plain_loads);
  free(c->stores);
  free(c->plain_stores);
  free(c->may_race);
  free(c->thread_entry);
  free(c->partners);
  free(c);
  analysis->concurrency = NULL;
}

bool bp_may_run_concurrently(const bp_analysis *analysis, uint32_t function) {
  return analysis->concurrency->may_race[function];
}

bool bp_thread_entries(const bp_analysis *analysis, uint32_t f, uint32_t g) {
  return analysis->concurrency->thread_entry[f] && analysis->concurrency->thread_entry[g];
}

static function_pair pair_of(uint32_t f, uint32_t g) {
  return f < g ? (function_pair){f, g} : (function_pair){g, f};
}

void bp_add_partners(bp_analysis *analysis, uint32_t f, uint32_t g) {
  struct bp_concurrency *c = analysis->concurrency;
  if (c->partner_count == c->partner_capacity) {
    c->partner_capacity = c->partner_capacity ? 2 * c->partner_capacity : 64;
    c->partners = realloc(c->partners, c->partner_capacity * sizeof *c->partners);
    if (!c->partners)
      abort();
  }
  c->partners[c->partner_count++] = pair_of(f, g);
  c->partners_sorted = false;
}

static int compare_function_objects(const void *left, const void *right) {
  const function_object *a = left, *b = right;
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->object, b->object);
  return 0;
}

/* The (function, object) pairs of the accesses `keep` selects, sorted and
 * unique. */
static function_object *index_accesses(const bp_engine *engine, bool (*keep)(const bp_event *event),
                                       size_t *count) {
  function_object *index = malloc((bp_event_count(engine) + 1) * sizeof *index);
  if (!index)
    abort();
  size_t kept = 0;
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    /* a thread's access of its own instance (a thread-local record's
     * field) serialises it with no other writer */
    if (event->type == BP_EVENT_ACCESS && !event->thread_own && keep(event))
      index[kept++] = (function_object){event->function, event->object};
  }
  if (kept)
    qsort(index, kept, sizeof *index, compare_function_objects);
  size_t unique = 0;
  for (size_t i = 0; i < kept; i++) {
    if (!unique || compare_function_objects(&index[unique - 1], &index[i]))
      index[unique++] = index[i];
  }
  *count = unique;
  return index;
}

/* The loads no marking, atomic type or primitive marks: a function that
 * reads an object plainly while another stores it assumes that nobody
 * stores it meanwhile. */
static bool plain_load(const bp_event *event) {
  return event->kind == BP_ACCESS_LOAD && !event->marked;
}

static bool store(const bp_event *event) {
  return event->kind == BP_ACCESS_STORE;
}

/* The stores no marking, atomic type or primitive marks. */
static bool plain_store(const bp_event *event) {
  return event->kind == BP_ACCESS_STORE && !event->marked;
}

static bool indexed(const function_object *index, size_t count, uint32_t function,
                    uint32_t object) {
  function_object key = {function, object};
  return count && bsearch(&key, index, count, sizeof key, compare_function_objects) != NULL;
}

static bool loads_plainly(const bp_analysis *analysis, uint32_t function, uint32_t object) {
  const struct bp_concurrency *c = analysis->concurrency;
  return indexed(c->plain_loads, c->plain_load_count, function, object);
}

bool bp_serialised_writers(const bp_analysis *analysis, uint32_t f, uint32_t g, uint32_t object) {
  const struct bp_concurrency *c = analysis->concurrency;
  if (indexed(c->plain_stores, c->plain_store_count, f, object) &&
      indexed(c->plain_stores, c->plain_store_count, g, object))
    return true;
  return indexed(c->stores, c->store_count, f, object) &&
         indexed(c->stores, c->store_count, g, object) &&
         (loads_plainly(analysis, f, object) || loads_plainly(analysis, g, object));
}

void bp_compute_concurrency(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t functions = engine->functions.count + 1;
  struct bp_concurrency *c = calloc(1, sizeof *c);
  if (!c)
    abort();
  c->may_race = calloc(functions, sizeof *c->may_race);
  c->thread_entry = calloc(functions, sizeof *c->thread_entry);
  if (!c->may_race || !c->thread_entry)
    abort();
  size_t names = engine->names.strings.count + 1;
  bool *started = calloc(names, sizeof *started);
  if (!started)
    abort();
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->function == BP_NO_FUNCTION)
      continue;
    if (event->type == BP_EVENT_SPAWN)
      started[event->callee] = true;
    if (((event->type == BP_EVENT_BARRIER && BP_STRENGTH_ORDER(event->strength)) ||
         (event->type == BP_EVENT_ACCESS && event->marked)) &&
        !bp_function_runs_alone(engine, event->function))
      c->may_race[event->function] = true;
  }
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (started[function->name] && !bp_function_runs_alone(engine, f))
      c->thread_entry[f] = c->may_race[f] = true;
  }
  free(started);
  c->plain_loads = index_accesses(engine, plain_load, &c->plain_load_count);
  c->stores = index_accesses(engine, store, &c->store_count);
  c->plain_stores = index_accesses(engine, plain_store, &c->plain_store_count);
  analysis->concurrency = c;
}

static int compare_pairs(const void *left, const void *right) {
  const function_pair *a = left, *b = right;
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

bool bp_are_partners(bp_analysis *analysis, uint32_t f, uint32_t g) {
  struct bp_concurrency *c = analysis->concurrency;
  if (!c->partners_sorted) {
    if (c->partner_count)
      qsort(c->partners, c->partner_count, sizeof *c->partners, compare_pairs);
    size_t unique = 0;
    for (size_t i = 0; i < c->partner_count; i++) {
      if (!unique || compare_pairs(&c->partners[unique - 1], &c->partners[i]))
        c->partners[unique++] = c->partners[i];
    }
    c->partner_count = unique;
    c->partners_sorted = true;
  }
  function_pair key = pair_of(f, g);
  return c->partner_count &&
         bsearch(&key, c->partners, c->partner_count, sizeof key, compare_pairs) != NULL;
}
