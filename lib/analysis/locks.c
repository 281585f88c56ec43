/* The locks held at each access: those every path from the function's
 * entry has taken and not released (a must-analysis over the blocks, loop
 * edges included: a lock is state, not an order), a call of a lock
 * wrapper of another file counting as its lock or unlock. Code that holds one lock
 * at all four accesses of a pairing runs in mutual exclusion with its
 * partner, so the pair orders nothing; an access and the access it races
 * with under one lock do not race. A reader lock excludes the lock's
 * writers only: two readers of one lock run at the same time. A lock the
 * code asserts it holds (lockdep_assert_held()), in a function that takes
 * and releases no lock itself, was held on entry, and so at each call of
 * the function by a caller that takes and releases none either, one call
 * up; the assertion makes no lock wrapper of its function: the caller took
 * it. A function whose every call the program shows (bp_set_callers) holds
 * on entry the locks held at all of them. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* Per function, locks are numbered by their first LOCK event; a function
 * rarely takes more, and the ones beyond are not tracked. */
#define LOCKS_TRACKED 64

/* A lock held as one of its readers is numbered and recorded as its object
 * with this bit (object ids stay far below it). */
#define SHARED_HOLD 0x80000000u

typedef struct {
  uint32_t objects[LOCKS_TRACKED];
  size_t count;
} lock_numbers;

static int lock_number(lock_numbers *numbers, uint32_t object, bool add) {
  for (size_t i = 0; i < numbers->count; i++) {
    if (numbers->objects[i] == object)
      return (int)i;
  }
  if (!add || numbers->count == LOCKS_TRACKED)
    return -1;
  numbers->objects[numbers->count] = object;
  return (int)numbers->count++;
}

/* Lock wrappers, by function name: one that returns holding a lock it took
 * on every path (`rtnl_lock()`: `mutex_lock(&rtnl_mutex)`) or releases one
 * it did not take (`rtnl_unlock()`) is that lock or unlock at a call whose
 * code is not lowered there (another file's function). */
#define NO_SUMMARY UINT32_MAX
#define CONFLICTING (UINT32_MAX - 1)
typedef struct {
  uint32_t acquires, releases; /* lock objects; NO_SUMMARY, CONFLICTING */
} lock_summary;

/* What a call event does to the locks: LOCK, UNLOCK or neither, of *lock. */
static bp_event_type call_effect(const bp_event *event, const lock_summary *summaries,
                                 size_t summary_count, uint32_t *lock) {
  if (event->type != BP_EVENT_CALL || event->inlined || !summaries ||
      event->callee >= summary_count)
    return BP_EVENT_CALL; /* an inlined call's code follows, its locks too */
  const lock_summary *summary = &summaries[event->callee];
  if (summary->acquires < CONFLICTING) {
    *lock = summary->acquires;
    return BP_EVENT_LOCK;
  }
  if (summary->releases < CONFLICTING) {
    *lock = summary->releases;
    return BP_EVENT_UNLOCK;
  }
  return BP_EVENT_CALL;
}

static bp_op lock_op(const bp_event *event) {
  const bp_primitive *primitive = bp_primitive_get(event->primitive);
  return primitive ? primitive->op : BP_OP_LOCK;
}

typedef struct {
  const bp_engine *engine;
  const lock_summary *summaries;
  size_t summary_count;
  bool assertions; /* LOCK_HELD events hold their lock (not when summarising wrappers) */
} lock_context;

/* The event's lock effect: its own, or its callee's as a wrapper; *lock is
 * the lock's object, with SHARED_HOLD for a reader's hold. */
static bp_event_type lock_effect(const lock_context *c, const bp_event *event, uint32_t *lock) {
  if (event->type == BP_EVENT_UNLOCK) {
    *lock = event->object;
    return BP_EVENT_UNLOCK;
  }
  if (event->type == BP_EVENT_LOCK) {
    bp_op op = lock_op(event);
    if (op == BP_OP_LOCK_HELD && !c->assertions)
      return BP_EVENT_CALL;
    *lock = event->object | (bp_op_is_reader_lock(op) ? SHARED_HOLD : 0);
    return BP_EVENT_LOCK;
  }
  return call_effect(event, c->summaries, c->summary_count, lock);
}

/* The locks held at the entry of a function, as lock keys (SHARED_HOLD for
 * a reader's): at most what a call records. */
typedef struct {
  bool any; /* not met yet: whatever its calls hold */
  size_t count;
  uint32_t locks[BP_HELD_MAX];
} entry_locks;

static uint64_t transfer(const lock_context *c, const bp_block *block, uint64_t held,
                         lock_numbers *numbers, uint32_t *record) {
  for (size_t i = 0; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(c->engine, id);
    /* at a call: the locks its callee runs under, whatever the call does */
    if (record && (event->type == BP_EVENT_ACCESS || event->type == BP_EVENT_CALL)) {
      size_t slot = 0;
      for (size_t n = 0; n < numbers->count && slot < BP_HELD_MAX; n++) {
        if (held & (UINT64_C(1) << n))
          record[(size_t)id * BP_HELD_MAX + slot++] = numbers->objects[n];
      }
    }
    uint32_t lock = BP_NO_OBJECT;
    bp_event_type effect = lock_effect(c, event, &lock);
    if (effect == BP_EVENT_LOCK) {
      int number = lock_number(numbers, lock, false);
      if (number >= 0)
        held |= UINT64_C(1) << number;
    } else if (effect == BP_EVENT_UNLOCK) {
      /* released as it was taken, exclusively or as a reader */
      int exclusive = lock_number(numbers, lock & ~SHARED_HOLD, false);
      int shared = lock_number(numbers, lock | SHARED_HOLD, false);
      if (exclusive >= 0)
        held &= ~(UINT64_C(1) << exclusive);
      if (shared >= 0)
        held &= ~(UINT64_C(1) << shared);
    }
  }
  return held;
}

/* The must-analysis of one function, from the locks held on its `entry`
 * (when given); records the locks held at each access and call in `held`
 * (when given) and returns those held when it returns. */
static uint64_t held_in_function(const lock_context *c, const bp_function *function,
                                 const entry_locks *entry, lock_numbers *numbers, uint32_t *held) {
  numbers->count = 0;
  uint64_t held_on_entry = 0;
  for (size_t i = 0; entry && i < entry->count; i++) {
    int number = lock_number(numbers, entry->locks[i], true);
    if (number >= 0)
      held_on_entry |= UINT64_C(1) << number;
  }
  size_t block_count = function->blocks.count;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const bp_event *event = bp_event_get(c->engine, *(uint32_t *)bp_vec_at(&block->events, i));
      uint32_t lock;
      if (lock_effect(c, event, &lock) == BP_EVENT_LOCK)
        lock_number(numbers, lock, true);
    }
  }
  if (numbers->count == 0 || block_count == 0)
    return 0;
  uint64_t *in = malloc(block_count * sizeof *in);
  bool *entered = calloc(block_count, sizeof *entered), *queued = calloc(block_count, 1);
  uint32_t *worklist = malloc(block_count * sizeof *worklist);
  if (!in || !entered || !queued || !worklist)
    abort();
  for (size_t b = 0; b < block_count; b++)
    in[b] = UINT64_MAX;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++)
      entered[*(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE] = true;
  }
  size_t pending = 0;
  for (size_t b = 0; b < block_count; b++) {
    if (!entered[b]) {
      in[b] = held_on_entry; /* an entry: nothing taken yet */
      queued[b] = true;
      worklist[pending++] = (uint32_t)b;
    }
  }
  while (pending) {
    uint32_t b = worklist[--pending];
    queued[b] = false;
    const bp_block *block = bp_vec_at(&function->blocks, b);
    uint64_t out = transfer(c, block, in[b], numbers, NULL);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
      uint64_t met = in[successor] & out;
      if (met != in[successor] || !queued[successor]) {
        bool changed = met != in[successor];
        in[successor] = met;
        if (changed && !queued[successor]) {
          queued[successor] = true;
          worklist[pending++] = successor;
        }
      }
    }
  }
  uint64_t at_exit = 0;
  if (held)
    for (size_t b = 0; b < block_count; b++)
      transfer(c, bp_vec_at(&function->blocks, b), in[b], numbers, held);
  if (function->exit < block_count && in[function->exit] != UINT64_MAX)
    at_exit = transfer(c, bp_vec_at(&function->blocks, function->exit), in[function->exit], numbers,
                       NULL);
  free(in);
  free(entered);
  free(queued);
  free(worklist);
  return at_exit;
}

/* A lock the function releases and never takes itself, or NO_SUMMARY. */
static uint32_t released_only(const lock_context *c, const bp_function *function,
                              const lock_numbers *taken) {
  uint32_t released = NO_SUMMARY;
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const bp_event *event = bp_event_get(c->engine, *(uint32_t *)bp_vec_at(&block->events, i));
      uint32_t lock;
      if (lock_effect(c, event, &lock) != BP_EVENT_UNLOCK)
        continue;
      bool own = false;
      for (size_t n = 0; n < taken->count && !own; n++)
        own = (taken->objects[n] & ~SHARED_HOLD) == lock;
      if (!own)
        released = released == NO_SUMMARY || released == lock ? lock : CONFLICTING;
    }
  }
  return released;
}

static void merge_summary(uint32_t *into, uint32_t found) {
  if (*into == NO_SUMMARY)
    *into = found;
  else if (*into != found)
    *into = CONFLICTING;
}

/* Every function's wrapper summary by name; rounds until a wrapper of a
 * wrapper is found too (a few at most). `wrapping`, per function: it
 * returns holding a lock. */
static lock_summary *summarise_wrappers(const bp_engine *engine, size_t *count, bool *wrapping) {
  *count = engine->names.strings.count;
  lock_summary *summaries = malloc((*count + 1) * sizeof *summaries);
  lock_summary *next = malloc((*count + 1) * sizeof *next);
  if (!summaries || !next)
    abort();
  for (size_t n = 0; n < *count; n++)
    summaries[n] = (lock_summary){NO_SUMMARY, NO_SUMMARY};
  bool *plain = malloc((*count + 1) * sizeof *plain);
  if (!plain)
    abort();
  lock_numbers numbers;
  for (int round = 0; round < 4; round++) {
    lock_context c = {engine, summaries, *count, false};
    for (size_t n = 0; n < *count; n++) {
      next[n] = (lock_summary){NO_SUMMARY, NO_SUMMARY};
      plain[n] = false;
    }
    for (size_t f = 0; f < engine->functions.count; f++) {
      const bp_function *function = bp_vec_at(&engine->functions, f);
      uint64_t at_exit = held_in_function(&c, function, NULL, &numbers, NULL);
      uint32_t acquires = NO_SUMMARY;
      for (size_t k = 0; k < numbers.count; k++) {
        if (at_exit & (UINT64_C(1) << k))
          acquires = acquires == NO_SUMMARY ? numbers.objects[k] : CONFLICTING;
      }
      uint32_t releases = released_only(&c, function, &numbers);
      wrapping[f] = acquires != NO_SUMMARY;
      if (acquires == NO_SUMMARY && releases == NO_SUMMARY) {
        plain[function->name] = true;
        continue;
      }
      merge_summary(&next[function->name].acquires,
                    acquires != NO_SUMMARY ? acquires : CONFLICTING);
      merge_summary(&next[function->name].releases,
                    releases != NO_SUMMARY ? releases : CONFLICTING);
    }
    /* a function of the same name that wraps nothing: no summary */
    for (size_t n = 0; n < *count; n++) {
      if (plain[n] && next[n].acquires != NO_SUMMARY)
        next[n] = (lock_summary){CONFLICTING, CONFLICTING};
    }
    bool changed = memcmp(summaries, next, *count * sizeof *summaries) != 0;
    lock_summary *swap = summaries;
    summaries = next;
    next = swap;
    if (!changed)
      break;
  }
  free(next);
  free(plain);
  return summaries;
}

static void meet(entry_locks *into, const uint32_t *held) {
  if (into->any) {
    into->any = false;
    into->count = 0;
    for (size_t i = 0; i < BP_HELD_MAX && held[i] != BP_NO_OBJECT; i++)
      into->locks[into->count++] = held[i];
    return;
  }
  size_t kept = 0;
  for (size_t i = 0; i < into->count; i++) {
    bool there = false;
    for (size_t j = 0; j < BP_HELD_MAX && held[j] != BP_NO_OBJECT && !there; j++)
      there = held[j] == into->locks[i];
    if (there)
      into->locks[kept++] = into->locks[i];
  }
  into->count = kept;
}

static bool same_entry(const entry_locks *a, const entry_locks *b) {
  if (a->any != b->any || a->count != b->count)
    return false;
  for (size_t i = 0; i < a->count; i++) {
    if (a->locks[i] != b->locks[i])
      return false;
  }
  return true;
}

/* The held locks recorded at `function`'s events, forgotten. */
static void forget_function_held(bp_analysis *analysis, const bp_function *function) {
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      for (size_t slot = 0; slot < BP_HELD_MAX; slot++)
        analysis->held[(size_t)id * BP_HELD_MAX + slot] = BP_NO_OBJECT;
    }
  }
}

static void forget_held(bp_analysis *analysis) {
  size_t slots = (bp_event_count(analysis->engine) + 1) * BP_HELD_MAX;
  for (size_t i = 0; i < slots; i++)
    analysis->held[i] = BP_NO_OBJECT;
}

/* Whether `function` takes a lock other than by an assertion: itself, or
 * through a call of a function that returns holding a lock (`wrapping`, by
 * definition: the wrappers' summaries go by name, and a name some other
 * unit's function wraps with says nothing of this call's); or releases one
 * itself, which it may have taken where the analysis does not see it (the
 * scheduler's `__schedule()` takes the run-queue lock through a local the
 * analysis cannot name, and releases it by name). */
static bool takes_locks(const lock_context *c, const bool *calls_wrapper, uint32_t f) {
  if (calls_wrapper[f])
    return true;
  const bp_function *function = bp_vec_at(&c->engine->functions, f);
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      const bp_event *event = bp_event_get(c->engine, *(uint32_t *)bp_vec_at(&block->events, i));
      uint32_t lock;
      if (event->type == BP_EVENT_UNLOCK ||
          (lock_effect(c, event, &lock) == BP_EVENT_LOCK && lock_op(event) != BP_OP_LOCK_HELD))
        return true;
    }
  }
  return false;
}

/* takes_locks(), asked once per function: `taking` holds 0 (not asked
 * yet), 1 (takes locks) or 2 (takes none). */
static bool takes_no_lock(const lock_context *c, const bool *calls_wrapper, unsigned char *taking,
                          uint32_t f) {
  if (!taking[f])
    taking[f] = takes_locks(c, calls_wrapper, f) ? 1 : 2;
  return taking[f] == 2;
}

static bool add_entry_lock(entry_locks *into, uint32_t lock) {
  for (size_t i = 0; i < into->count; i++) {
    if (into->locks[i] == lock)
      return false;
  }
  if (into->count == BP_HELD_MAX)
    return false;
  into->locks[into->count++] = lock;
  return true;
}

/* The locks each function says its callers hold: an assertion of a lock
 * (lockdep_assert_held(), sock_owned_by_me(); its inlined helpers' too) in
 * a function that takes and releases no lock itself (takes_locks()) was
 * true when it was called, whatever path reaches it; and so, one call up,
 * at the calls of such a function by a function that takes none either.
 * The kernel asserts in small helpers (`tcp_snd_una_update()`) what every
 * function above them holds. A function that takes a lock may have taken this one in a way
 * the analysis does not name as it (the scheduler's run-queue lock,
 * through `__rq_lockp()`), and each call further up may carry an assertion
 * made on one branch to code that never runs under the lock: either way
 * the run-queue lock reached threads that only wake others. */
static entry_locks *locks_asserted_on_entry(const lock_context *c, const bool *wrapping) {
  const bp_engine *engine = c->engine;
  size_t function_count = engine->functions.count;
  entry_locks *asserted = calloc(function_count + 1, sizeof *asserted);
  unsigned char *taking = calloc(function_count + 1, 1);
  bool *calls_wrapper = calloc(function_count + 1, sizeof *calls_wrapper);
  if (!asserted || !taking || !calls_wrapper)
    abort();
  bp_vec calls;
  bp_build_direct_calls(engine, &calls);
  for (size_t k = 0; k < calls.count; k++) {
    const bp_call_edge *edge = bp_vec_at(&calls, k);
    const bp_event *event = bp_event_get(engine, edge->event);
    if (!event->inlined && wrapping[edge->callee])
      calls_wrapper[event->function] = true;
  }
  bool any = false;
  for (uint32_t f = 0; f < function_count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t i = 0; i < block->events.count; i++) {
        const bp_event *event = bp_event_get(engine, *(uint32_t *)bp_vec_at(&block->events, i));
        if (event->type != BP_EVENT_LOCK || lock_op(event) != BP_OP_LOCK_HELD)
          continue;
        if (takes_no_lock(c, calls_wrapper, taking, f))
          any = add_entry_lock(&asserted[f], event->object) || any;
      }
    }
  }
  /* one call up: the callers' own assertions, not those carried to them */
  entry_locks *own = malloc((function_count + 1) * sizeof *own);
  if (!own)
    abort();
  memcpy(own, asserted, function_count * sizeof *own);
  for (size_t k = 0; any && k < calls.count; k++) {
    const bp_call_edge *edge = bp_vec_at(&calls, k);
    uint32_t caller = bp_event_get(engine, edge->event)->function;
    if (!own[edge->callee].count || asserted[caller].count == BP_HELD_MAX)
      continue;
    if (!takes_no_lock(c, calls_wrapper, taking, caller))
      continue;
    for (size_t i = 0; i < own[edge->callee].count; i++)
      add_entry_lock(&asserted[caller], own[edge->callee].locks[i]);
  }
  free(own);
  bp_vec_free(&calls);
  free(taking);
  free(calls_wrapper);
  return asserted;
}

/* What a function holds on entry: its callers' locks and its assertions'. */
static entry_locks with_assertions(const entry_locks *entry, const entry_locks *asserted) {
  entry_locks all = *entry;
  for (size_t i = 0; i < asserted->count; i++)
    add_entry_lock(&all, asserted->locks[i]);
  return all;
}

/* Rounds of the must-analysis until the locks held on entry settle: a
 * callee's are met at its calls, whose callers' own may still change. A
 * function whose entry has not settled after them, or that one of those
 * calls, keeps none (never more than is held); the kernel's nine
 * directories settle after 11. */
#define ENTRY_ROUNDS 64

static entry_locks *locks_on_entry(bp_analysis *analysis, const lock_context *c,
                                   const entry_locks *asserted) {
  const bp_engine *engine = analysis->engine;
  size_t function_count = engine->functions.count;
  entry_locks *entry = calloc(function_count + 1, sizeof *entry);
  entry_locks *next = calloc(function_count + 1, sizeof *next);
  if (!entry || !next)
    abort();
  bp_call_graph graph;
  bp_build_call_graph(engine, &graph);
  const bool *known = graph.known, *calling = graph.calling;
  for (uint32_t f = 0; f < function_count; f++)
    entry[f].any = known[f];
  bool settled = graph.calls.count == 0;
  lock_numbers numbers;
  uint32_t no_lock[BP_HELD_MAX];
  for (size_t i = 0; i < BP_HELD_MAX; i++)
    no_lock[i] = BP_NO_OBJECT;
  /* a round works out again only the functions whose entry changed in the
   * one before: on a kernel the entries of a few change for tens of rounds */
  bool *changed = malloc((function_count + 1) * sizeof *changed);
  if (!changed)
    abort();
  for (uint32_t f = 0; f < function_count; f++)
    changed[f] = true;
  forget_held(analysis);
  for (int round = 0; round < ENTRY_ROUNDS && !settled; round++) {
    for (uint32_t f = 0; f < function_count; f++) {
      if (!changed[f] || !calling[f])
        continue;
      const bp_function *function = bp_vec_at(&engine->functions, f);
      forget_function_held(analysis, function);
      if (!entry[f].any) {
        entry_locks held = with_assertions(&entry[f], &asserted[f]);
        held_in_function(c, function, &held, &numbers, analysis->held);
      }
    }
    for (uint32_t f = 0; f < function_count; f++)
      next[f] = (entry_locks){.any = known[f]};
    for (size_t c = 0; c < graph.calls.count; c++) {
      const bp_call_edge *edge = bp_vec_at(&graph.calls, c);
      const bp_event *event = bp_event_get(engine, edge->event);
      if (event->type == BP_EVENT_SPAWN)
        meet(&next[edge->callee], no_lock); /* a thread starts holding nothing */
      else if (!entry[event->function].any) /* else: holds whatever its callee needs */
        meet(&next[edge->callee], &analysis->held[(size_t)edge->event * BP_HELD_MAX]);
    }
    settled = true;
    for (uint32_t f = 0; f < function_count; f++) {
      changed[f] = !same_entry(&entry[f], &next[f]);
      settled = settled && !changed[f];
    }
    entry_locks *swap = entry;
    entry = next;
    next = swap;
  }
  /* unsettled after the rounds: what still changed, and what it calls,
   * directly or not, may hold less; the rest has its final entry */
  for (bool spread = !settled; spread;) {
    spread = false;
    for (size_t c = 0; c < graph.calls.count; c++) {
      const bp_call_edge *edge = bp_vec_at(&graph.calls, c);
      uint32_t caller = bp_event_get(engine, edge->event)->function;
      if (changed[caller] && !changed[edge->callee])
        spread = changed[edge->callee] = true;
    }
  }
  bp_free_call_graph(&graph);
  /* never met (called only from itself), or not settled: no lock */
  for (uint32_t f = 0; f < function_count; f++) {
    if (entry[f].any || (!settled && changed[f]))
      entry[f] = (entry_locks){0};
  }
  free(changed);
  free(next);
  return entry;
}

void bp_compute_held_locks(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t slots = (bp_event_count(engine) + 1) * BP_HELD_MAX;
  analysis->held = malloc(slots * sizeof *analysis->held);
  if (!analysis->held)
    abort();
  size_t count;
  bool *wrapping = calloc(engine->functions.count + 1, sizeof *wrapping);
  if (!wrapping)
    abort();
  lock_summary *summaries = summarise_wrappers(engine, &count, wrapping);
  lock_context c = {engine, summaries, count, true};
  entry_locks *asserted = locks_asserted_on_entry(&c, wrapping);
  free(wrapping);
  entry_locks *entry = locks_on_entry(analysis, &c, asserted);
  forget_held(analysis);
  lock_numbers numbers;
  for (size_t f = 0; f < engine->functions.count; f++) {
    entry_locks held = with_assertions(&entry[f], &asserted[f]);
    held_in_function(&c, bp_vec_at(&engine->functions, f), &held, &numbers, analysis->held);
  }
  free(asserted);
  free(entry);
  free(summaries);
}

typedef enum { NOT_HELD, HELD_SHARED, HELD_EXCLUSIVE } hold;

static hold how_held(const bp_analysis *analysis, uint32_t event, uint32_t lock) {
  for (size_t i = 0; i < BP_HELD_MAX; i++) {
    uint32_t held = analysis->held[(size_t)event * BP_HELD_MAX + i];
    if (held == BP_NO_OBJECT)
      break;
    if ((held & ~SHARED_HOLD) == lock)
      return held & SHARED_HOLD ? HELD_SHARED : HELD_EXCLUSIVE;
  }
  return NOT_HELD;
}

/* One lock held at every event, by a writer at one at least: readers alone
 * exclude nothing among themselves. */
bool bp_hold_common_lock(const bp_analysis *analysis, const uint32_t *events, size_t count) {
  for (size_t i = 0; count && i < BP_HELD_MAX; i++) {
    uint32_t held = analysis->held[(size_t)events[0] * BP_HELD_MAX + i];
    if (held == BP_NO_OBJECT)
      break;
    uint32_t lock = held & ~SHARED_HOLD;
    bool everywhere = true, writer = !(held & SHARED_HOLD);
    for (size_t e = 1; e < count && everywhere; e++) {
      hold how = how_held(analysis, events[e], lock);
      everywhere = how != NOT_HELD;
      writer = writer || how == HELD_EXCLUSIVE;
    }
    if (everywhere && writer)
      return true;
  }
  return false;
}
