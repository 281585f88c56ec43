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
  const bp_engine *engine;
  const bp_options *options;
  store_record *stores; /* sorted, unique */
  size_t store_count;
  bp_vec candidates; /* bp_finding */
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
    if (event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE)
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

/* An object that neither side stores needs a third function to store it, or
 * the pair orders nothing (the article's CPU 2 and CPU 3). */
static bool stored_elsewhere(const pairing *p, uint32_t object, uint32_t f, uint32_t g) {
  size_t low = 0, high = p->store_count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (p->stores[middle].object < object)
      low = middle + 1;
    else
      high = middle;
  }
  for (size_t i = low; i < p->store_count && p->stores[i].object == object; i++) {
    if (p->stores[i].function != f && p->stores[i].function != g)
      return true;
  }
  return false;
}

static bp_side side_of(const bp_ordering *ordering) {
  return (bp_side){ordering->function, ordering->first, ordering->second, ordering->barrier,
                   ordering->strength};
}

static bp_family family_of(const bp_engine *engine, uint32_t event) {
  const bp_event *e = event == BP_NO_EVENT ? NULL : bp_event_get(engine, event);
  const bp_primitive *primitive = e ? bp_primitive_get(e->primitive) : NULL;
  return primitive ? primitive->family : BP_FAMILY_URCU;
}

/* `scenario` has `side` as CPU 0. */
static void check_side(pairing *p, const bp_ordering *side, const bp_ordering *partner,
                       int scenario) {
  unsigned need = bp_scenario_need(scenario, 0);
  if ((side->strength & need) == need)
    return;
  bp_rule rule = side->strength ? BP_RULE_WEAK_BARRIER : BP_RULE_MISSING_BARRIER;
  if (p->options->disabled[rule])
    return;
  bp_finding *finding = bp_vec_push(&p->candidates);
  finding->rule = rule;
  finding->at = rule == BP_RULE_WEAK_BARRIER ? side->barrier : side->second;
  finding->scenario = scenario;
  finding->side = side_of(side);
  finding->partner = side_of(partner);
  finding->need = need;
  finding->family =
      family_of(p->engine, rule == BP_RULE_WEAK_BARRIER ? side->barrier : partner->barrier);
}

static void check_pair(pairing *p, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  if (cpu0->strength == 0 && cpu1->strength == 0)
    return; /* no barrier on either side: nothing claims an order here */
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  if (!x0 && !x1 && !stored_elsewhere(p, cpu0->first_object, cpu0->function, cpu1->function))
    return;
  if (!y0 && !y1 && !stored_elsewhere(p, cpu0->second_object, cpu0->function, cpu1->function))
    return;
  int scenario = bp_scenario_number(x0, y0, y1, x1);
  check_side(p, cpu0, cpu1, scenario);
  check_side(p, cpu1, cpu0, bp_scenario_mirror(scenario));
}

static int compare_by_objects(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

static size_t lower_bound(const bp_vec *orderings, uint32_t first_object, uint32_t second_object) {
  size_t low = 0, high = orderings->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    const bp_ordering *o = bp_vec_at(orderings, middle);
    if (o->first_object < first_object ||
        (o->first_object == first_object && o->second_object < second_object))
      low = middle + 1;
    else
      high = middle;
  }
  return low;
}

static const bp_location *location_of(const bp_engine *engine, uint32_t event) {
  return &bp_event_get(engine, event)->location;
}

static const bp_engine *sorting_engine; /* qsort has no context argument in C11 */

static int compare_candidates(const void *left, const void *right) {
  const bp_finding *a = left, *b = right;
  const bp_location *la = location_of(sorting_engine, a->at);
  const bp_location *lb = location_of(sorting_engine, b->at);
  BP_COMPARE(la->file, lb->file);
  BP_COMPARE(la->line, lb->line);
  BP_COMPARE(la->column, lb->column);
  BP_COMPARE(a->at, b->at);
  BP_COMPARE(a->rule, b->rule);
  /* a finding with a partner says more than a barrier's kind alone */
  BP_COMPARE(a->partner.function == BP_NO_FUNCTION, b->partner.function == BP_NO_FUNCTION);
  BP_COMPARE(a->side.first, b->side.first);
  BP_COMPARE(a->partner.function, b->partner.function);
  BP_COMPARE(a->partner.first, b->partner.first);
  BP_COMPARE(a->partner.second, b->partner.second);
  return 0;
}

/* One finding per rule and place; the other partners are counted. */
static size_t merge_candidates(pairing *p, bp_finding **findings) {
  bp_vec *candidates = &p->candidates;
  sorting_engine = p->engine;
  if (candidates->count)
    qsort(candidates->items, candidates->count, sizeof(bp_finding), compare_candidates);
  bp_finding *items = candidates->items;
  size_t unique = 0;
  for (size_t i = 0; i < candidates->count; i++) {
    if (unique && items[unique - 1].at == items[i].at && items[unique - 1].rule == items[i].rule) {
      if (items[i].partner.function != BP_NO_FUNCTION)
        items[unique - 1].other_pairings++;
      continue;
    }
    items[unique++] = items[i];
  }
  *findings = items;
  return unique;
}

size_t bp_pair_orderings(const bp_engine *engine, bp_vec *orderings, const bp_options *options,
                         bp_finding **findings) {
  pairing p = {.engine = engine, .options = options};
  bp_vec_init(&p.candidates, sizeof(bp_finding));
  index_stores(&p);
  if (orderings->count)
    qsort(orderings->items, orderings->count, sizeof(bp_ordering), compare_by_objects);
  for (size_t i = 0; i < orderings->count; i++) {
    const bp_ordering *cpu0 = bp_vec_at(orderings, i);
    if (cpu0->first_object > cpu0->second_object)
      continue; /* each unordered pair once: from the side with the lower object first */
    for (size_t j = lower_bound(orderings, cpu0->second_object, cpu0->first_object);
         j < orderings->count; j++) {
      const bp_ordering *cpu1 = bp_vec_at(orderings, j);
      if (cpu1->first_object != cpu0->second_object || cpu1->second_object != cpu0->first_object)
        break;
      if (cpu1->function != cpu0->function)
        check_pair(&p, cpu0, cpu1);
    }
  }
  if (!options->disabled[BP_RULE_WEAK_BARRIER]) {
    for (uint32_t f = 0; f < engine->functions.count; f++)
      bp_check_barrier_kinds(engine, f, &p.candidates);
  }
  free(p.stores);
  return merge_candidates(&p, findings);
}
