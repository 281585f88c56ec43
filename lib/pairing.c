/* Pairs orderings across functions: function F orders X before Y, function G
 * orders Y before X. The four access kinds give the scenario, the scenario
 * gives the barrier each side needs. Orderings are sorted by their objects,
 * so each one finds its mirror by binary search, never by a pass over all
 * pairs. */
#include "internal.h"

#include <stdlib.h>

typedef struct {
  uint32_t object, function;
} store_record;

typedef struct {
  bp_analysis *analysis;
  const bp_engine *engine;
  store_record *stores; /* sorted, unique */
  size_t store_count;
} pairing;

static int compare_stores(const void *left, const void *right) {
  const store_record *a = left, *b = right;
  if (a->object != b->object)
    return a->object < b->object ? -1 : 1;
  if (a->function != b->function)
    return a->function < b->function ? -1 : 1;
  return 0;
}

static void index_stores(pairing *p) {
  bp_vec stores;
  bp_vec_init(&stores, sizeof(store_record));
  for (uint32_t id = 0; id < bp_event_count(p->engine); id++) {
    const bp_event *event = bp_event_get(p->engine, id);
    /* a store made before any thread starts is no third CPU's */
    if (event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE &&
        !bp_before_all_threads(p->analysis, id))
      *(store_record *)bp_vec_push(&stores) = (store_record){event->object, event->function};
  }
  if (stores.count)
    qsort(stores.items, stores.count, sizeof(store_record), compare_stores);
  size_t unique = 0;
  store_record *items = stores.items;
  for (size_t i = 0; i < stores.count; i++) {
    if (unique == 0 || compare_stores(&items[unique - 1], &items[i]) != 0)
      items[unique++] = items[i];
  }
  p->stores = items;
  p->store_count = unique;
}

/* The functions other than f and g that store `object`: how many (counting
 * to two) and the first. */
static size_t storers_elsewhere(const pairing *p, uint32_t object, uint32_t f, uint32_t g,
                                uint32_t *first) {
  size_t low = 0, high = p->store_count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (p->stores[middle].object < object)
      low = middle + 1;
    else
      high = middle;
  }
  size_t count = 0;
  for (size_t i = low; i < p->store_count && p->stores[i].object == object && count < 2; i++) {
    uint32_t function = p->stores[i].function;
    if (function != f && function != g && (count == 0 || function != *first)) {
      if (count == 0)
        *first = function;
      count++;
    }
  }
  return count;
}

/* An object that neither side stores needs a third function to store it, or
 * the pair orders nothing (the article's CPU 2 and CPU 3). */
static bool stored_elsewhere(const pairing *p, uint32_t object, uint32_t f, uint32_t g) {
  uint32_t first;
  return storers_elsewhere(p, object, f, g, &first) > 0;
}

/* Two accesses to memory not yet published: nobody else sees their order. */
static bool unpublished_side(const bp_engine *engine, const bp_ordering *side) {
  return bp_event_get(engine, side->first)->unpublished &&
         bp_event_get(engine, side->second)->unpublished;
}

static bool own_instances(const bp_engine *engine, uint32_t a, uint32_t b) {
  return bp_event_get(engine, a)->thread_own && bp_event_get(engine, b)->thread_own;
}

static bp_side side_of(const bp_ordering *ordering) {
  return (bp_side){ordering->function, ordering->first, ordering->second, ordering->barrier,
                   ordering->strength};
}

/* `scenario` has `side` as CPU 0. */
static void check_side(pairing *p, const bp_ordering *side, const bp_ordering *partner,
                       int scenario) {
  unsigned need = bp_scenario_need(scenario, 0);
  if ((side->strength & need) == need)
    return;
  bp_rule rule = side->strength ? BP_RULE_WEAK_BARRIER : BP_RULE_MISSING_BARRIER;
  bp_finding *finding = bp_add_candidate(p->analysis, rule);
  if (!finding)
    return;
  finding->at = rule == BP_RULE_WEAK_BARRIER ? side->barrier : side->second;
  finding->scenario = scenario;
  finding->side = side_of(side);
  finding->partner = side_of(partner);
  finding->need = need;
  finding->family =
      bp_event_family(p->engine, rule == BP_RULE_WEAK_BARRIER ? side->barrier : partner->barrier);
}

static bool marked(const bp_engine *engine, uint32_t event) {
  return bp_event_get(engine, event)->marked;
}

static bool read_modify_write(const bp_engine *engine, uint32_t event) {
  const bp_primitive *primitive = bp_primitive_get(bp_event_get(engine, event)->primitive);
  return primitive && primitive->op == BP_OP_RMW;
}

/* Two writers of one object that the code serialises some other way: a
 * writer that reads the object plainly assumes nobody else stores it
 * meanwhile (a single-writer design: RCU updaters, Concurrency Kit's
 * structures, whose writers the caller serialises), unless the pair's
 * stores of it are read-modify-writes (lock-free writers that do race).
 * Two writers that really race mark their stores and never read plainly
 * what they share. */
static bool serialised_writers(const pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  const bp_engine *engine = p->engine;
  const struct {
    uint32_t object, access0, access1;
  } shared[2] = {
      {cpu0->first_object, cpu0->first, cpu1->second},
      {cpu0->second_object, cpu0->second, cpu1->first},
  };
  for (int i = 0; i < 2; i++) {
    if (!read_modify_write(engine, shared[i].access0) &&
        !read_modify_write(engine, shared[i].access1) &&
        bp_serialised_writers(p->analysis, cpu0->function, cpu1->function, shared[i].object))
      return true;
  }
  return false;
}

/* The pair's objects, accesses and functions can meet at all. */
static bool can_pair(pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  if (!x0 && !x1 && !stored_elsewhere(p, cpu0->first_object, cpu0->function, cpu1->function))
    return false;
  if (!y0 && !y1 && !stored_elsewhere(p, cpu0->second_object, cpu0->function, cpu1->function))
    return false;
  /* Two readers (IRIW) disagree only on the order of two independent
   * stores: when one function is the only other writer of both objects, its
   * own pairing with each reader is what orders them. */
  uint32_t x_writer, y_writer;
  if (!x0 && !x1 && !y0 && !y1 &&
      storers_elsewhere(p, cpu0->first_object, cpu0->function, cpu1->function, &x_writer) == 1 &&
      storers_elsewhere(p, cpu0->second_object, cpu0->function, cpu1->function, &y_writer) == 1 &&
      x_writer == y_writer)
    return false;
  if (unpublished_side(p->engine, cpu0) || unpublished_side(p->engine, cpu1))
    return false; /* initialisation before publication */
  if (own_instances(p->engine, cpu0->first, cpu1->second) ||
      own_instances(p->engine, cpu0->second, cpu1->first))
    return false; /* each thread's own thread-local instance: not one object */
  if (bp_before_thread(p->analysis, cpu0->first, cpu1->function) ||
      bp_before_thread(p->analysis, cpu1->first, cpu0->function) ||
      bp_after_thread(p->analysis, cpu0->second, cpu1->function) ||
      bp_after_thread(p->analysis, cpu1->second, cpu0->function))
    return false; /* one side started the other's thread after its first access, or
                     joined it before its second */
  uint32_t accesses[4] = {cpu0->first, cpu0->second, cpu1->first, cpu1->second};
  if (bp_hold_common_lock(p->analysis, accesses, 4))
    return false; /* critical sections of one lock: never at the same time */
  return !serialised_writers(p, cpu0, cpu1);
}

/* Rows where a third function's store takes part (the article's CPU 2 and
 * CPU 3 columns). */
static bool needs_third_cpu(int scenario) {
  const bp_scenario *row = bp_scenario_get(scenario);
  return row && ((row->code[2] && row->code[2][0]) || (row->code[3] && row->code[3][0]));
}

/* A side with no barrier is a missing barrier only where the code says
 * that it runs against the barriered side: it marks both accesses (the
 * programmer said "this races"), or the two functions are the entries of
 * threads. In a row of two CPUs (where no third function's store takes
 * part), weaker evidence is enough: the side marks the flag of a message whose payload may stay
 * plain (a marked load first, or a marked store second), or marks one access and the two functions
 * pair barriers elsewhere. */
static bool races_with(pairing *p, const bp_ordering *unordered, const bp_ordering *ordered,
                       int scenario) {
  const bp_engine *engine = p->engine;
  bool first = marked(engine, unordered->first), second = marked(engine, unordered->second);
  if ((first && second) || bp_thread_entries(p->analysis, unordered->function, ordered->function))
    return true;
  if (needs_third_cpu(scenario))
    return false;
  bool flag_marked = (first && unordered->first_kind == BP_ACCESS_LOAD) ||
                     (second && unordered->second_kind == BP_ACCESS_STORE);
  return flag_marked || ((first || second) &&
                         bp_are_partners(p->analysis, unordered->function, ordered->function));
}

static void check_sides(pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  int scenario = bp_scenario_number(x0, y0, y1, x1);
  check_side(p, cpu0, cpu1, scenario);
  check_side(p, cpu1, cpu0, bp_scenario_mirror(scenario));
  if (cpu0->strength && cpu1->strength)
    bp_check_marking(p->analysis, cpu0, cpu1, scenario);
}

/* First pass: barriers that pair with barriers, which also say which
 * functions run concurrently. */
static void check_barrier_pair(pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  if (!cpu0->strength || !cpu1->strength || !can_pair(p, cpu0, cpu1))
    return;
  bp_add_partners(p->analysis, cpu0->function, cpu1->function);
  check_sides(p, cpu0, cpu1);
}

/* Second pass: a barriered side against one with no barrier. */
static void check_missing_barrier(pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  if (!cpu0->strength == !cpu1->strength)
    return;
  const bp_ordering *unordered = cpu0->strength ? cpu1 : cpu0;
  const bp_ordering *ordered = cpu0->strength ? cpu0 : cpu1;
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  int scenario = bp_scenario_number(x0, y0, y1, x1);
  if (!races_with(p, unordered, ordered, scenario) || !can_pair(p, cpu0, cpu1))
    return;
  check_sides(p, cpu0, cpu1);
}

typedef void (*pair_check)(pairing *, const bp_ordering *, const bp_ordering *);

static void for_each_pair(pairing *p, pair_check check) {
  const bp_vec *orderings = &p->analysis->orderings;
  for (size_t i = 0; i < orderings->count; i++) {
    const bp_ordering *cpu0 = bp_vec_at(orderings, i);
    if (cpu0->first_object > cpu0->second_object)
      continue; /* each unordered pair once: from the side with the lower object first */
    size_t j;
    size_t end = bp_orderings_between(p->analysis, cpu0->second_object, cpu0->first_object, &j);
    for (; j < end; j++) {
      const bp_ordering *cpu1 = bp_vec_at(orderings, j);
      if (cpu1->function != cpu0->function)
        check(p, cpu0, cpu1);
    }
  }
}

void bp_check_pairs(bp_analysis *analysis) {
  pairing p = {.analysis = analysis, .engine = analysis->engine};
  index_stores(&p);
  for_each_pair(&p, check_barrier_pair);
  for_each_pair(&p, check_missing_barrier);
  free(p.stores);
}
