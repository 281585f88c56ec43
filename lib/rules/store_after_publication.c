/* store-after-publication: a store into memory its function has just
 * allocated, made after the function stored a pointer to that memory into
 * a shared place (`arenas[i] = arena; arena->id = i`). Another thread that
 * finds the memory through that pointer may read the field before the
 * store lands; no barrier after the publication helps: the store must move
 * before it. Reported where another function that may run at the same
 * time loads the field, of an instance the store may be to (not a
 * neighbour's `hlist_node.pprev` that a list's removal reads, against
 * hlist_add_head()'s own after it links the node). */
#include "rules/rules.h"

#include <stdlib.h>

void bp_check_stores_after_publication(bp_analysis *analysis) {
  if (analysis->options->disabled[BP_RULE_STORE_AFTER_PUBLICATION])
    return;
  const bp_engine *engine = analysis->engine;
  size_t objects = engine->objects.strings.count + 1;
  /* per object, loads in two functions that may run concurrently */
  uint32_t(*readers)[2] = malloc(objects * sizeof *readers);
  if (!readers)
    abort();
  for (size_t o = 0; o < objects; o++)
    readers[o][0] = readers[o][1] = BP_NO_EVENT;
  bool any = false;
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ACCESS)
      continue;
    any = any || event->after_publication;
    if (event->kind != BP_ACCESS_LOAD || !bp_may_run_concurrently(analysis, event->function))
      continue;
    uint32_t *reader = readers[event->object];
    if (reader[0] == BP_NO_EVENT)
      reader[0] = id;
    else if (reader[1] == BP_NO_EVENT &&
             bp_event_get(engine, reader[0])->function != event->function)
      reader[1] = id;
  }
  for (uint32_t id = 0; any && id < bp_event_count(engine); id++) {
    const bp_event *store = bp_event_get(engine, id);
    if (store->type != BP_EVENT_ACCESS || store->kind != BP_ACCESS_STORE ||
        !store->after_publication)
      continue;
    uint32_t race = BP_NO_EVENT;
    for (int r = 0; r < 2 && race == BP_NO_EVENT; r++) {
      uint32_t reader = readers[store->object][r];
      if (reader != BP_NO_EVENT && bp_event_get(engine, reader)->function != store->function &&
          bp_may_reach_one_instance(engine, store->object, id, reader))
        race = reader;
    }
    if (race == BP_NO_EVENT)
      continue;
    bp_finding *finding = bp_add_candidate(analysis, BP_RULE_STORE_AFTER_PUBLICATION);
    if (!finding)
      break;
    finding->at = id;
    finding->race = race;
    finding->side = (bp_side){store->function, id, id, BP_NO_EVENT, 0};
    finding->family = bp_event_family(engine, id);
  }
  free(readers);
}
