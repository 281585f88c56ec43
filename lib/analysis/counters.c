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

/* A store of a number written in the code (`record->n_peak = 0`). */
static bool stores_constant(const bp_engine *engine, uint32_t id) {
  const char *value = bp_event_value_text(engine, id);
  if (!value || !*value)
    return false;
  for (const char *c = value; *c; c++)
    if (!strchr("0123456789uUlLxX", *c))
      return false;
  return true;
}

enum { NOT_COUNTING, COUNTING_STEP, COUNTING_RESET_OR_READ };

/* What an access says of its object: a step of a count (an add or a
 * subtract), an access a count also has (a relaxed load, a reset to a
 * number), or an access that orders or is plain. */
static int counter_access(const bp_engine *engine, uint32_t id) {
  const bp_event *access = bp_event_get(engine, id);
  const bp_primitive *primitive = bp_primitive_get(access->primitive);
  if (ordered_at(engine, id))
    return NOT_COUNTING;
  if (access->kind == BP_ACCESS_STORE && !bp_read_modify_write(engine, id) &&
      (!primitive || primitive->op == BP_OP_STORE) && stores_constant(engine, id))
    return COUNTING_RESET_OR_READ;
  if (!access->marked || !primitive)
    return NOT_COUNTING;
  if (primitive->op == BP_OP_LOAD)
    return COUNTING_RESET_OR_READ;
  return primitive->op == BP_OP_RMW && counting(primitive) ? COUNTING_STEP : NOT_COUNTING;
}

/* An object is a count when every access is one a count has and one of
 * them steps it: a flag set to 1 and read relaxed is no count. */
void bp_find_counters(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t objects = engine->objects.strings.count;
  enum { STEPPED = 1, DISQUALIFIED = 2 };
  unsigned char *state = calloc(objects + 1, 1);
  analysis->counters = calloc(objects + 1, sizeof *analysis->counters);
  if (!state || !analysis->counters)
    abort();
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ACCESS || (state[event->object] & DISQUALIFIED))
      continue;
    int access = counter_access(engine, id);
    state[event->object] |= access == NOT_COUNTING ? DISQUALIFIED
                            : access == COUNTING_STEP ? STEPPED
                                                      : 0;
  }
  for (size_t o = 0; o < objects; o++)
    analysis->counters[o] = state[o] == STEPPED;
  free(state);
}

bool bp_counter(const bp_analysis *analysis, uint32_t object) {
  return analysis->counters && analysis->counters[object];
}

void bp_uncount(bp_analysis *analysis, uint32_t object) {
  if (analysis->counters)
    analysis->counters[object] = false;
}
