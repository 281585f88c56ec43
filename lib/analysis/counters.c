/* Counters: objects that the whole program changes only by adding to and
 * subtracting from them, and reads, with relaxed atomics of C11, GCC or
 * liburcu (mimalloc's `abandoned_count`, liburcu's split counters), and
 * that no fence written in the code orders (bp_uncount). Writing memory_order_relaxed on every
 * access says that no order is derived from the object: it is neither a
 * flag nor a message's payload, and its orders pair with nothing. One
 * access with an order (an acquire load, a plain access to an _Atomic, a
 * barrier-implying primitive), a plain access or an exchange makes it an
 * object like any other. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

static bool same_place(bp_location a, bp_location b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

/* An implicit barrier written at the access's place: the access is ordered
 * (release, acquire, sequentially consistent), not relaxed. */
static bool ordered_at(const bp_engine *engine, uint32_t id) {
  const bp_event *access = bp_event_get(engine, id);
  size_t count = bp_event_count(engine);
  for (uint32_t other = id > 2 ? id - 2 : 0; other <= id + 2 && other < count; other++) {
    const bp_event *event = bp_event_get(engine, other);
    if (other != id && event->function == access->function && event->type == BP_EVENT_BARRIER &&
        event->implicit && same_place(event->location, access->location))
      return true;
  }
  return false;
}

/* A read-modify-write that adds or subtracts (fetch_add, sub_fetch,
 * increment), not one that exchanges or compares. */
static bool counting(const bp_primitive *primitive) {
  const char *name = primitive->name;
  if (strstr(name, "xchg") || strstr(name, "exchange") || strstr(name, "cas") ||
      strstr(name, "cmp"))
    return false;
  return strstr(name, "add") || strstr(name, "sub") || strstr(name, "inc") || strstr(name, "dec");
}

static bool counter_access(const bp_engine *engine, uint32_t id) {
  const bp_event *access = bp_event_get(engine, id);
  const bp_primitive *primitive = bp_primitive_get(access->primitive);
  if (!access->marked || !primitive ||
      (primitive->family != BP_FAMILY_C11 && primitive->family != BP_FAMILY_GCC &&
       primitive->family != BP_FAMILY_URCU) ||
      ordered_at(engine, id))
    return false;
  return primitive->op == BP_OP_LOAD || (primitive->op == BP_OP_RMW && counting(primitive));
}

void bp_find_counters(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t objects = engine->objects.strings.count;
  /* 0: not accessed yet, 1: a counter so far, 2: not a counter */
  unsigned char *state = calloc(objects + 1, 1);
  analysis->counters = calloc(objects + 1, sizeof *analysis->counters);
  if (!state || !analysis->counters)
    abort();
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ACCESS || state[event->object] == 2)
      continue;
    state[event->object] = counter_access(engine, id) ? 1 : 2;
  }
  for (size_t o = 0; o < objects; o++)
    analysis->counters[o] = state[o] == 1;
  free(state);
}

bool bp_counter(const bp_analysis *analysis, uint32_t object) {
  return analysis->counters && analysis->counters[object];
}

void bp_uncount(bp_analysis *analysis, uint32_t object) {
  if (analysis->counters)
    analysis->counters[object] = false;
}
