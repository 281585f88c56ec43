/* Counters: objects that the whole program changes only by adding to and
 * subtracting from them, and reads, with relaxed atomics of C11, GCC or
 * liburcu (mimalloc's `abandoned_count`, liburcu's split counters), and
 * that no fence written in the code orders (bp_uncount). Writing memory_order_relaxed on every
 * access says that no order is derived from the object: it is neither a
 * flag nor a message's payload, and its orders pair with nothing. One
 * access with an order (an acquire load, a plain access to an _Atomic, a
 * barrier-implying primitive), a plain access or an exchange makes it an
 * object like any other.
 *
 * Reference counts: an object with a put (a decrement whose result decides
 * handing the counted memory over, bp_set_reference_put; jansson's
 * `json_decref()`, liburcu's `urcu_ref_put()`) orders one thing: the uses
 * of the memory before a put against what the last put, which the count's
 * result lets through, does with it (bp_reference_count). */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

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
  if (!bp_event_get(engine, id)->value_known)
    return false;
  const char *value = bp_event_value_text(engine, id);
  if (!value || !*value)
    return false;
  for (const char *c = value; *c; c++)
    if (!strchr("0123456789uUlLxX", *c))
      return false;
  return true;
}

enum { NOT_COUNTING, COUNTING_STEP, COUNTING_RESET_OR_READ, COUNTING_IF_DERIVED };

/* What an access says of its object: a step of a count (an add or a
 * subtract), an access a count also has (a relaxed load, a reset to a
 * number), or an access that orders or is plain. */
static int counter_access(const bp_engine *engine, uint32_t id) {
  const bp_event *access = bp_event_get(engine, id);
  const bp_primitive *primitive = bp_primitive_get(access->primitive);
  if (bp_own_barrier(engine, id, ~0u) != BP_NO_EVENT)
    return NOT_COUNTING; /* ordered at its place, not relaxed */
  if (access->kind == BP_ACCESS_STORE && !bp_read_modify_write(engine, id) &&
      (!primitive || primitive->op == BP_OP_STORE) && stores_constant(engine, id))
    return COUNTING_RESET_OR_READ;
  if (!access->marked || !primitive)
    return NOT_COUNTING;
  if (primitive->op == BP_OP_LOAD)
    return COUNTING_RESET_OR_READ;
  if (primitive->op == BP_OP_STORE)
    return COUNTING_IF_DERIVED; /* a peak: see derived_from_counts */
  return bp_op_is_rmw(primitive->op) && counting(primitive) ? COUNTING_STEP : NOT_COUNTING;
}

/* A relaxed store compared with the object's own value and computed or
 * decided from another count (CK's `if (n_pending > n_peak)
 * ck_pr_store_uint(&n_peak, ...)`): a peak, a statistic of statistics, a
 * step of a count too. The checks of its callers around it do not matter.
 * A flag set from its own value alone (`WRITE_ONCE(flags, READ_ONCE(flags)
 * | WAKEUP)`) is none. */
static bool derived_from_counts(const bp_engine *engine, uint32_t id, const unsigned char *state,
                                unsigned char counted) {
  const bp_event *store = bp_event_get(engine, id);
  bool own_value = false, other_count = false;
  for (int g = 0; g < BP_GUARDS_MAX; g++) {
    uint32_t guard = store->guards[g];
    if (guard == store->object)
      own_value = true;
    else if (guard != BP_NO_OBJECT && state[guard] == counted)
      other_count = true;
  }
  return own_value && other_count;
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
  bp_vec derived; /* stores that step a count if their sources are counts */
  bp_vec_init(&derived, sizeof(uint32_t));
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ACCESS || (state[event->object] & DISQUALIFIED))
      continue;
    int access = counter_access(engine, id);
    if (access == COUNTING_IF_DERIVED)
      *(uint32_t *)bp_vec_push(&derived) = id;
    state[event->object] |= access == NOT_COUNTING    ? DISQUALIFIED
                            : access == COUNTING_STEP ? STEPPED
                                                      : 0;
  }
  /* A peak counts once what it is computed from does: until nothing
   * changes, since a peak may be computed from another peak. */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < derived.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&derived, i);
      uint32_t object = bp_event_get(engine, id)->object;
      if (state[object] == 0 && derived_from_counts(engine, id, state, STEPPED)) {
        bool all = true;
        for (size_t k = 0; k < derived.count && all; k++) {
          uint32_t other = *(uint32_t *)bp_vec_at(&derived, k);
          all = bp_event_get(engine, other)->object != object ||
                derived_from_counts(engine, other, state, STEPPED);
        }
        if (all) {
          state[object] = STEPPED;
          changed = true;
        }
      }
    }
  }
  /* a relaxed store that is no peak makes its object an object like any other */
  for (size_t i = 0; i < derived.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&derived, i);
    uint32_t object = bp_event_get(engine, id)->object;
    if (!derived_from_counts(engine, id, state, STEPPED))
      state[object] |= DISQUALIFIED;
  }
  bp_vec_free(&derived);
  analysis->reference_counts = calloc(objects + 1, sizeof *analysis->reference_counts);
  if (!analysis->reference_counts)
    abort();
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_ACCESS && event->reference_put)
      analysis->reference_counts[event->object] = true;
  }
  for (size_t o = 0; o < objects; o++)
    analysis->counters[o] = state[o] == STEPPED && !analysis->reference_counts[o];
  free(state);
}

bool bp_counter(const bp_analysis *analysis, uint32_t object) {
  return analysis->counters && analysis->counters[object];
}

bool bp_reference_count(const bp_analysis *analysis, uint32_t object) {
  return analysis->reference_counts && analysis->reference_counts[object];
}

void bp_uncount(bp_analysis *analysis, uint32_t object) {
  if (analysis->counters)
    analysis->counters[object] = false;
}
