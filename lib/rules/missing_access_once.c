/* missing-access-once: the accesses of a paired site race with the partner's
 * and must be marked, so that the compiler neither tears, fuses nor invents
 * them. The exemptions, as the Linux kernel memory model has them:
 *
 * - A payload does not race: one side accesses it and then stores a flag,
 *   the other loads the flag and accesses the payload only under a check of
 *   the flag's value (a control or address dependency). Message passing is
 *   the common case (the writer stores the payload, the reader reads it);
 *   a ring's slot is the other way round too (the consumer reads the slot
 *   and then frees it, the producer writes it only after seeing it freed).
 * - A function's read of an object no other function stores.
 * - A load that finds its object through the pair's other object, against
 *   a third function's store that function publishes through that object
 *   (set-up before the link).
 * - An access of a writer that the code serialises with a plain racing
 *   store's (both store the object plainly, or one also reads it plainly).
 * - A sequence-count reader's read (a seqlock's): a marked load of a count,
 *   a read barrier, the read, a read barrier and the count read again to
 *   decide whether to go round once more. A torn or stale value is thrown
 *   away when the count changed; KCSAN and the kernel's seqlock code treat
 *   such reads, and the writer's stores they race with, the same way.
 *
 * - An access in a region KCSAN takes as marked (a seqcount's write or read
 *   section, bp_set_marked_region), whatever its shape.
 *
 * Strict marking drops them all, as the article marks every access of its
 * litmus tests.
 *
 * The pairs are those of two barriered sides (analysis/pairs.c): the
 * accesses of a barrier pairing, not every two racing accesses. */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t object, function;
  bp_access_kind kind;
  uint32_t event;
} access_record;

typedef struct {
  access_record *accesses; /* sorted by object, function, kind, event */
  size_t count;
  /* the stores that may race, by object: object o's are
   * stores[first_store[o]] up to stores[first_store[o + 1]] */
  uint32_t *stores, *first_store;
} marking_index;

/* A store that may race: not made before any thread starts, and in a
 * function with some sign of running at the same time as others (a
 * barrier, a marked access, a thread start naming it). */
static bool racing_store(const bp_analysis *analysis, uint32_t id, const bp_event *event) {
  return event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE &&
         !bp_before_all_threads(analysis, id) && bp_may_run_concurrently(analysis, event->function);
}

static int compare_accesses(const void *left, const void *right) {
  const access_record *a = left, *b = right;
  BP_COMPARE(a->object, b->object);
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->kind, b->kind);
  BP_COMPARE(a->event, b->event);
  return 0;
}

/* Stores by place, so that the racing store a finding names, and the
 * first STORES_LOOKED_AT of an object's that are looked at, are the same
 * whatever order the front end met units in (`link` meets site files by
 * name, `check` units in the database's order). */
static const bp_engine *sorting_engine; /* qsort has no context argument in C11 */
static const uint32_t *sorting_file_ranks;

static int compare_file_paths(const void *left, const void *right) {
  return strcmp(bp_file_path(sorting_engine, *(const uint32_t *)left),
                bp_file_path(sorting_engine, *(const uint32_t *)right));
}

static int compare_store_places(const void *left, const void *right) {
  uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
  const bp_event *ea = bp_event_get(sorting_engine, a), *eb = bp_event_get(sorting_engine, b);
  BP_COMPARE(sorting_file_ranks[ea->location.file], sorting_file_ranks[eb->location.file]);
  BP_COMPARE(ea->location.line, eb->location.line);
  BP_COMPARE(ea->location.column, eb->location.column);
  int order;
  if (ea->function != eb->function &&
      ((order = strcmp(bp_function_name(sorting_engine, ea->function),
                       bp_function_name(sorting_engine, eb->function))) ||
       (order = strcmp(bp_function_unit(sorting_engine, ea->function),
                       bp_function_unit(sorting_engine, eb->function)))))
    return order;
  /* one function's events at one place: their order is its own */
  BP_COMPARE(a, b);
  return 0;
}

static void sort_stores_by_place(const bp_engine *engine, marking_index *index, size_t objects) {
  size_t files = engine->files.strings.count;
  uint32_t *by_path = malloc((files + 1) * sizeof *by_path);
  uint32_t *ranks = malloc((files + 1) * sizeof *ranks);
  if (!by_path || !ranks)
    abort();
  for (uint32_t f = 0; f < files; f++)
    by_path[f] = f;
  sorting_engine = engine;
  sorting_file_ranks = ranks;
  if (files)
    qsort(by_path, files, sizeof *by_path, compare_file_paths);
  for (uint32_t r = 0; r < files; r++)
    ranks[by_path[r]] = r;
  for (size_t o = 0; o < objects; o++) {
    uint32_t first = index->first_store[o], end = index->first_store[o + 1];
    if (end - first > 1)
      qsort(index->stores + first, end - first, sizeof *index->stores, compare_store_places);
  }
  sorting_engine = NULL;
  sorting_file_ranks = NULL;
  free(by_path);
  free(ranks);
}

static void index_accesses(const bp_analysis *analysis, marking_index *index) {
  const bp_engine *engine = analysis->engine;
  *index = (marking_index){0};
  size_t objects = engine->objects.strings.count, events = bp_event_count(engine);
  index->first_store = calloc(objects + 2, sizeof *index->first_store);
  index->accesses = malloc((events + 1) * sizeof *index->accesses);
  if (!index->first_store || !index->accesses)
    abort();
  for (uint32_t id = 0; id < events; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ACCESS)
      continue;
    index->accesses[index->count++] =
        (access_record){event->object, event->function, event->kind, id};
    if (racing_store(analysis, id, event))
      index->first_store[event->object + 2]++;
  }
  for (size_t o = 2; o < objects + 2; o++)
    index->first_store[o] += index->first_store[o - 1];
  index->stores = malloc((index->first_store[objects + 1] + 1) * sizeof *index->stores);
  if (!index->stores)
    abort();
  for (uint32_t id = 0; id < events; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (racing_store(analysis, id, event))
      index->stores[index->first_store[event->object + 1]++] = id;
  }
  sort_stores_by_place(engine, index, objects);
  if (index->count)
    qsort(index->accesses, index->count, sizeof *index->accesses, compare_accesses);
}

static void free_index(marking_index *index) {
  free(index->accesses);
  free(index->stores);
  free(index->first_store);
}

/* The run of the rule: the analysis and the index of its accesses. */
typedef struct {
  bp_analysis *analysis;
  marking_index index;
  bool *payload; /* per event: a payload in some pairing */
} checker;

/* The accesses of `function` to `object` of `kind`: [*begin, end). */
static size_t accesses_of(const marking_index *index, uint32_t function, uint32_t object,
                          bp_access_kind kind, size_t *begin) {
  access_record key = {object, function, kind, 0};
  size_t low = 0, high = index->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (compare_accesses(&index->accesses[middle], &key) < 0)
      low = middle + 1;
    else
      high = middle;
  }
  *begin = low;
  size_t end = low;
  while (end < index->count && index->accesses[end].object == object &&
         index->accesses[end].function == function && index->accesses[end].kind == kind)
    end++;
  return end;
}

/* Whether the function of `store` follows it with a barrier that orders
 * stores and then a store of `other`: it fills in what that store publishes
 * (liburcu's init_table_populate_partition() sets a bucket's
 * `reverse_hash`, then links the bucket with a uatomic_cmpxchg() of
 * `next`), and a function that finds the memory through `other` reads it
 * after the publication. Events in id order are the function's in the
 * order lowering met them (reverse post-order). */
static bool published_through(const checker *c, uint32_t store, uint32_t other) {
  const bp_engine *engine = c->analysis->engine;
  uint32_t function = bp_event_get(engine, store)->function;
  bool fenced = false;
  for (uint32_t id = store + 1; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->function != function)
      break;
    if (event->type == BP_EVENT_BARRIER &&
        (event->strength & (BP_STRENGTH_STORES | BP_STRENGTH_RELEASE)))
      fenced = true;
    else if (fenced && event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE &&
             event->object == other)
      return true;
  }
  return false;
}

/* How many of an object's stores a search looks at: a field named by its
 * type (every `list_head.next`) is stored in thousands of places. */
#define STORES_LOOKED_AT 4096

/* A store of `object` by a function other than `function` that may reach
 * the instance `access` reaches (a field named by its type, reached from
 * containers of one type: pairs.c), or BP_NO_EVENT; not one that function
 * publishes through `other` (BP_NO_OBJECT: any); with `marked_only`, one
 * its writer marks. */
static uint32_t store_elsewhere(const checker *c, uint32_t object, uint32_t function,
                                uint32_t other, uint32_t access, bool marked_only) {
  const bp_engine *engine = c->analysis->engine;
  uint32_t first = c->index.first_store[object], end = c->index.first_store[object + 1];
  if (end - first > STORES_LOOKED_AT)
    end = first + STORES_LOOKED_AT;
  for (uint32_t i = first; i < end; i++) {
    uint32_t store = c->index.stores[i];
    const bp_event *event = bp_event_get(engine, store);
    if (event->function != function && (!marked_only || event->marked) &&
        (other == BP_NO_OBJECT || !published_through(c, store, other)) &&
        bp_may_reach_one_instance(engine, object, access, store))
      return store;
  }
  return BP_NO_EVENT;
}

/* Another store of `object` by the writer of `race` into an instance the
 * writer found through `flag`, or BP_NO_EVENT: a reader that depends on
 * the flag is ordered after the set-up the flag hands over, not after a
 * change of an instance it handed over before (the kernel's
 * ipip6_tunnel_add_prl() sets `flags` of a new entry before
 * rcu_assign_pointer(), and of an entry it found in the list with no
 * publication after). */
static uint32_t unpublished_change(const checker *c, uint32_t object, uint32_t race, uint32_t flag,
                                   uint32_t access) {
  const bp_engine *engine = c->analysis->engine;
  size_t i, end = accesses_of(&c->index, bp_event_get(engine, race)->function, object,
                              BP_ACCESS_STORE, &i);
  for (; i < end; i++) {
    uint32_t store = c->index.accesses[i].event;
    const bp_event *event = bp_event_get(engine, store);
    if (store != race && !event->marked && !event->unpublished &&
        bp_event_addressed_through(engine, store, flag) &&
        racing_store(c->analysis, store, event) && !published_through(c, store, flag) &&
        bp_may_reach_one_instance(engine, object, access, store))
      return store;
  }
  return BP_NO_EVENT;
}

static bool orders_loads(const bp_event *event) {
  return event->type == BP_EVENT_BARRIER &&
         (event->strength & (BP_STRENGTH_LOADS | BP_STRENGTH_ACQUIRE));
}

/* The object of the first marked load before the nearest barrier that
 * orders loads, walking from `load` by `step` (-1: back, 1: on) through its
 * function's events in the order lowering met them; with `count` given,
 * that object's load must also decide whether a loop goes round again. */
static uint32_t count_read_around(const bp_engine *engine, uint32_t load, int step,
                                  uint32_t count) {
  uint32_t function = bp_event_get(engine, load)->function;
  bool fenced = false;
  for (int64_t id = (int64_t)load + step; id >= 0 && id < (int64_t)bp_event_count(engine);
       id += step) {
    const bp_event *event = bp_event_get(engine, (uint32_t)id);
    if (event->function != function)
      break;
    if (orders_loads(event)) {
      fenced = true;
      continue;
    }
    if (!fenced || event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_LOAD ||
        !event->marked)
      continue;
    if (count == BP_NO_OBJECT)
      return event->object;
    if (event->object == count && bp_decides_next_round(engine, (uint32_t)id))
      return count;
  }
  return BP_NO_OBJECT;
}

/* Load `load` is a sequence-count reader's: between two marked reads of one
 * count, each past a barrier that orders loads, the second deciding
 * whether the reader goes round again (read_seqbegin(), the reads,
 * read_seqretry()). */
static bool validated_by_count(const bp_engine *engine, uint32_t load) {
  const bp_event *event = bp_event_get(engine, load);
  if (event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_LOAD)
    return false;
  uint32_t count = count_read_around(engine, load, -1, BP_NO_OBJECT);
  return count != BP_NO_OBJECT && count != event->object &&
         count_read_around(engine, load, 1, count) == count;
}

/* Load `load` is a sequence-count reader's read of its count: the opening
 * one (past a barrier that orders loads, a second marked read of the count
 * decides whether the reader goes round again) or the closing one (it
 * decides, and a marked read of the count comes before the barrier). */
static bool reads_sequence_count(const bp_engine *engine, uint32_t load) {
  const bp_event *event = bp_event_get(engine, load);
  if (event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_LOAD || !event->marked)
    return false;
  if (count_read_around(engine, load, 1, event->object) == event->object)
    return true;
  return bp_decides_next_round(engine, load) &&
         count_read_around(engine, load, -1, BP_NO_OBJECT) == event->object;
}

/* One function's part in a pair: its accesses to one object. */
typedef struct {
  const bp_ordering *ordering; /* the function's side of the pair */
  const bp_ordering *partner;
  int scenario; /* with this side as CPU 0 */
  uint32_t object;
  bp_access_kind kind;
  uint32_t access;            /* the side's access to the object */
  uint32_t partner_access;    /* the partner's access to the object */
  uint32_t exempt_flag;       /* when the object is a payload: its flag */
  bool reader;                /* the side that loads the flag, then checks it */
  bp_access_kind reader_kind; /* how the reader accesses the payload */
} object_part;

/* A payload's two parts and the flag the reader checks. */
typedef struct {
  object_part *side, *reader;
  uint32_t flag;
} payload_choice;

/* Whether `access` is under a check of `flag`'s value or reaches its
 * instance through the pointer loaded from `flag`: both make it depend on
 * that load. An event's guards hold its address sources where they fit
 * (BP_GUARDS_MAX); under many checks only its own list still names them
 * (the kernel's `rcu_dereference(nh->nh_grp)->is_multipath` under the
 * route's checks). */
static bool depends_on_flag(const bp_engine *engine, uint32_t access, uint32_t flag) {
  return bp_event_guarded_by(engine, access, flag) ||
         bp_event_addressed_through(engine, access, flag);
}

static bool all_guarded(const checker *c, uint32_t function, uint32_t object, bp_access_kind kind,
                        uint32_t flag) {
  size_t i, end = accesses_of(&c->index, function, object, kind, &i);
  for (; i < end; i++) {
    if (!depends_on_flag(c->analysis->engine, c->index.accesses[i].event, flag))
      return false;
  }
  return true;
}

/* Every access of the reader to the payload is under the check of the flag,
 * or reaches its instance through a pointer the reader loaded (the payload
 * of another instance, which that instance's own publication hands over:
 * the kernel's netlbl_domhsh_search_def() reads `valid` of the default
 * entry of each family and of the entries of a hash list). A plain read
 * of it reached no such way races with the writer's store. */
static bool all_checked_or_found(const checker *c, uint32_t function, uint32_t object,
                                 bp_access_kind kind, uint32_t flag) {
  const bp_engine *engine = c->analysis->engine;
  size_t i, end = accesses_of(&c->index, function, object, kind, &i);
  for (; i < end; i++) {
    uint32_t access = c->index.accesses[i].event;
    if (!bp_event_guarded_by(engine, access, flag) &&
        !bp_event_addressed_through(engine, access, BP_NO_OBJECT))
      return false;
  }
  return true;
}

/* Accesses `id` and `race` never run at the same time: they hold one lock,
 * are both the thread's own, a thread start or join orders them, or one is
 * a lazy set-up the other runs after. */
static bool kept_apart(bp_analysis *analysis, uint32_t id, uint32_t race) {
  const bp_event *access = bp_event_get(analysis->engine, id),
                 *racing = bp_event_get(analysis->engine, race);
  uint32_t pair[2] = {id, race};
  return bp_hold_common_lock(analysis, pair, 2) || (access->thread_own && racing->thread_own) ||
         bp_set_up_before(analysis->engine, id, race) ||
         bp_before_thread(analysis, id, racing->function) ||
         bp_before_thread(analysis, race, access->function) ||
         bp_after_thread(analysis, id, racing->function) ||
         bp_after_thread(analysis, race, access->function);
}

static void check_part(checker *c, const object_part *part) {
  bp_analysis *analysis = c->analysis;
  const bp_engine *engine = analysis->engine;
  bool strict = analysis->options->strict_marking;
  const bp_event *partner_access = bp_event_get(engine, part->partner_access);
  uint32_t race = part->partner_access;
  const bp_ordering *side = part->ordering, *partner = part->partner;
  uint32_t other = part->object == side->first_object ? side->second_object : side->first_object;
  /* a load that finds the object through the pair's other object (an
   * address or a control dependency) reads what a third function
   * published through that object after the publication */
  bool found_through_other = !strict && (bp_event_addressed_through(engine, part->access, other) ||
                                         bp_event_guarded_by(engine, part->access, other));
  /* Both sides load it: the race is with a third function's store, which
   * the pairing does not tie to the side as it ties the partner. Only a
   * store its writer marks says that readers run against it; a plain one
   * found by the object's name alone (a field named by its type, set up
   * or torn down) is no evidence of a race. */
  if (part->kind == BP_ACCESS_LOAD && partner_access->kind == BP_ACCESS_LOAD)
    race = store_elsewhere(c, part->object, side->function,
                           found_through_other ? other : BP_NO_OBJECT, part->access, !strict);
  if (race == BP_NO_EVENT)
    return;
  bool exempt_writer = part->exempt_flag != BP_NO_OBJECT && !part->reader &&
                       all_checked_or_found(c, part->partner->function, part->object,
                                            part->reader_kind, part->exempt_flag);
  uint32_t id = part->access;
  const bp_event *access = bp_event_get(engine, id);
  if (access->marked || access->marked_region || access->unpublished ||
      kept_apart(analysis, id, race))
    return;
  bool checked = false; /* the reader depends on the flag already */
  if (!strict) {
    if (exempt_writer) {
      c->payload[id] = true;
      return;
    }
    if (part->reader && depends_on_flag(engine, id, part->exempt_flag)) {
      checked = true;
      race = unpublished_change(c, part->object, race, part->exempt_flag, id);
      if (race == BP_NO_EVENT || kept_apart(analysis, id, race)) {
        c->payload[id] = true;
        return;
      }
    }
    /* a reader that reaches the payload's instance through a pointer it
     * loaded, where the store is the instance's set-up before its
     * publication: the publication hands the instance over (a list walk's
     * `fa->fa_slen` after `hlist_add_head_rcu()` of a new alias) */
    if (part->reader && bp_event_get(engine, race)->unpublished &&
        bp_event_addressed_through(engine, id, BP_NO_OBJECT)) {
      c->payload[id] = true;
      return;
    }
    /* nor does an access of a writer that the code serialises with a
     * plain racing store's (concurrency.c: both store the object plainly,
     * or one also reads it plainly); a marked store says they do race */
    const bp_event *racing = bp_event_get(engine, race);
    if (!racing->marked &&
        bp_serialised_writers(analysis, access->function, racing->function, part->object))
      return;
    if (validated_by_count(engine, id) || validated_by_count(engine, race))
      return;
    /* the writer's own count, against the readers that validate with it:
     * the kernel steps it plainly (write_seqcount_begin() and end(), inside
     * what KCSAN treats as an atomic region), and a reader that reads it
     * torn or stale goes round again */
    if (part->kind == BP_ACCESS_STORE && reads_sequence_count(engine, race))
      return;
    /* a read of an object only this function stores races with nothing */
    if (part->kind == BP_ACCESS_LOAD &&
        store_elsewhere(c, part->object, side->function, BP_NO_OBJECT, part->access, false) ==
            BP_NO_EVENT)
      return;
  }
  bp_finding *finding = bp_add_candidate(analysis, BP_RULE_MISSING_ACCESS_ONCE);
  if (!finding)
    return;
  finding->at = id;
  finding->scenario = part->scenario;
  finding->side =
      (bp_side){side->function, side->first, side->second, side->barrier, side->strength};
  finding->partner = (bp_side){partner->function, partner->first, partner->second, partner->barrier,
                               partner->strength};
  finding->race = race;
  finding->family =
      bp_event_family(engine, side->barrier != BP_NO_EVENT ? side->barrier : partner->barrier);
  if (part->reader && !strict && !checked)
    finding->check_object = part->exempt_flag;
}

static bool reader_guarded(const checker *c, const payload_choice *choice) {
  return all_guarded(c, choice->reader->ordering->function, choice->reader->object,
                     choice->reader->kind, choice->flag);
}

/* Of two ways to read a pair as a message, the one whose reader checks
 * the flag before every access of the payload: 0 or 1, or -1 when both
 * readers do or neither does. Then the pair is no message either way round
 * (load buffering: each object is the other's flag, and both are marked),
 * whichever order the pair's sides come in (it follows the order units
 * were merged in). */
static int guarded_payload(const checker *c, const payload_choice payloads[2]) {
  bool first = reader_guarded(c, &payloads[0]), second = reader_guarded(c, &payloads[1]);
  return first == second ? -1 : second;
}

/* `cpu0` orders x before y, `cpu1` y before x. */
static void check_pair(checker *c, const bp_ordering *cpu0, const bp_ordering *cpu1, int scenario) {
  if (!bp_scenario_reported(c->analysis, scenario))
    return;
  int mirror = bp_scenario_mirror(scenario);
  uint32_t x = cpu0->first_object, y = cpu0->second_object;
  object_part parts[4] = {
      {cpu0, cpu1, scenario, x, cpu0->first_kind, cpu0->first, cpu1->second, BP_NO_OBJECT, false,
       0},
      {cpu0, cpu1, scenario, y, cpu0->second_kind, cpu0->second, cpu1->first, BP_NO_OBJECT, false,
       0},
      {cpu1, cpu0, mirror, y, cpu1->first_kind, cpu1->first, cpu0->second, BP_NO_OBJECT, false, 0},
      {cpu1, cpu0, mirror, x, cpu1->second_kind, cpu1->second, cpu0->first, BP_NO_OBJECT, false, 0},
  };
  /* A payload and its flag: one side accesses the payload and then stores
   * the flag, the other loads the flag and then accesses the payload. In
   * load buffering both objects fit; the one the reader checks is the flag,
   * and the other stays a flag that must be marked. */
  payload_choice payloads[2];
  int candidates = 0;
  if (cpu0->second_kind == BP_ACCESS_STORE && cpu1->first_kind == BP_ACCESS_LOAD)
    payloads[candidates++] = (payload_choice){&parts[0], &parts[3], y};
  if (cpu1->second_kind == BP_ACCESS_STORE && cpu0->first_kind == BP_ACCESS_LOAD)
    payloads[candidates++] = (payload_choice){&parts[2], &parts[1], x};
  int chosen = 0;
  if (candidates == 2 && (chosen = guarded_payload(c, payloads)) < 0)
    candidates = 0;
  /* A payload both sides only load is stored by a third function, whose
   * store no check orders. */
  if (candidates && payloads[chosen].side->kind == BP_ACCESS_LOAD &&
      payloads[chosen].reader->kind == BP_ACCESS_LOAD)
    candidates = 0;
  if (candidates) {
    object_part *side = payloads[chosen].side, *reader = payloads[chosen].reader;
    side->exempt_flag = reader->exempt_flag = payloads[chosen].flag;
    side->reader_kind = reader->reader_kind = reader->kind;
    reader->reader = true;
  }
  for (int i = 0; i < 4; i++)
    check_part(c, &parts[i]);
}

/* An access that is a message's payload in one pairing is one in every
 * pairing it is in: the message is what orders it, whichever other pairing
 * its objects fall into (a push's plain store of a node's `next` before the
 * compare-and-swap that publishes the node also precedes the swap's load). */
static bool not_a_payload(const bp_analysis *analysis, const bp_finding *finding, void *context) {
  (void)analysis;
  const checker *c = context;
  return finding->rule != BP_RULE_MISSING_ACCESS_ONCE || !c->payload[finding->at];
}

void bp_check_missing_access_once(bp_analysis *analysis) {
  checker c = {.analysis = analysis};
  index_accesses(analysis, &c.index);
  c.payload = calloc(bp_event_count(analysis->engine) + 1, sizeof *c.payload);
  if (!c.payload)
    abort();
  for (size_t i = 0; i < analysis->barrier_pairs.count; i++) {
    const bp_barrier_pair *pair = bp_vec_at(&analysis->barrier_pairs, i);
    check_pair(&c, bp_vec_at(&analysis->orderings, pair->cpu0),
               bp_vec_at(&analysis->orderings, pair->cpu1), pair->scenario);
  }
  bp_keep_candidates(analysis, 0, not_a_payload, &c);
  free(c.payload);
  free_index(&c.index);
}
