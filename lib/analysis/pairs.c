/* Pairs orderings across functions: function F orders X before Y, function G
 * orders Y before X. Orderings are sorted by their objects, so each one finds
 * its mirror by binary search, never by a pass over all pairs. The pairs
 * whose two sides both have a barrier are the evidence that F and G run
 * concurrently (concurrency.c's partners); the rules judge each side of them
 * (rules/missing_barrier.c, rules/missing_access_once.c). */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t object, function;
  uint64_t bits;  /* the bits the function's stores change; 0: any */
  bool published; /* some of them store into memory other threads can reach */
} store_record;

/* The functions that store each object after the program starts threads. */
struct bp_store_index {
  store_record *stores; /* sorted, unique */
  size_t count;
  /* per object, of the stores other threads may see, the one function
   * whose stores may write a non-zero value (zero: a zero one; a value not
   * known may be either), MANY_WRITERS for several, NO_WRITER for none */
  uint32_t *nonzero_writer, *zero_writer;
  /* every store event of the program, by object: object o's are
   * store_events[events_from[o]] up to store_events[events_from[o + 1]] */
  uint32_t *store_events;
  size_t *events_from;
};
#define NO_WRITER UINT32_MAX
#define MANY_WRITERS (UINT32_MAX - 1)

/* The one function whose stores of `object` may write zero (`zero`) or
 * a non-zero value; NO_WRITER, MANY_WRITERS. */
static uint32_t passing_writer(const struct bp_store_index *stores, uint32_t object, bool zero) {
  return zero ? stores->zero_writer[object] : stores->nonzero_writer[object];
}

static void add_writer(uint32_t *writer, uint32_t function) {
  if (*writer == NO_WRITER)
    *writer = function;
  else if (*writer != function)
    *writer = MANY_WRITERS;
}

static int compare_stores(const void *left, const void *right) {
  const store_record *a = left, *b = right;
  if (a->object != b->object)
    return a->object < b->object ? -1 : 1;
  if (a->function != b->function)
    return a->function < b->function ? -1 : 1;
  return 0;
}

/* Every store event, grouped by object (a counting sort over the events). */
static void index_store_events(const bp_engine *engine, struct bp_store_index *index) {
  size_t objects = engine->objects.strings.count + 1;
  size_t *from = calloc(objects + 1, sizeof *from);
  if (!from)
    abort();
  uint32_t count = (uint32_t)bp_event_count(engine);
  for (uint32_t id = 0; id < count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE)
      from[event->object + 1]++;
  }
  for (size_t o = 0; o < objects; o++)
    from[o + 1] += from[o];
  uint32_t *events = malloc((from[objects] + 1) * sizeof *events);
  size_t *next = malloc((objects + 1) * sizeof *next);
  if (!events || !next)
    abort();
  memcpy(next, from, (objects + 1) * sizeof *next);
  for (uint32_t id = 0; id < count; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE)
      events[next[event->object]++] = id;
  }
  free(next);
  index->store_events = events;
  index->events_from = from;
}

static struct bp_store_index *index_stores(const bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  bp_vec stores;
  bp_vec_init(&stores, sizeof(store_record));
  size_t objects = engine->objects.strings.count + 1;
  uint32_t *nonzero_writer = malloc(objects * sizeof *nonzero_writer);
  uint32_t *zero_writer = malloc(objects * sizeof *zero_writer);
  if (!nonzero_writer || !zero_writer)
    abort();
  for (size_t o = 0; o < objects; o++)
    nonzero_writer[o] = zero_writer[o] = NO_WRITER;
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    /* a store made before any thread starts is no third CPU's */
    if (event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_STORE ||
        bp_before_all_threads(analysis, id))
      continue;
    *(store_record *)bp_vec_push(&stores) =
        (store_record){event->object, event->function, event->bits, !event->unpublished};
    if (event->unpublished)
      continue; /* set-up nobody sees before its publication */
    /* an address is never zero */
    if ((!event->value_known && !event->stored_nonzero) ||
        (event->value_known && event->stored_value == 0))
      add_writer(&zero_writer[event->object], event->function);
    if (!event->value_known || event->stored_value != 0)
      add_writer(&nonzero_writer[event->object], event->function);
  }
  if (stores.count)
    qsort(stores.items, stores.count, sizeof(store_record), compare_stores);
  size_t unique = 0;
  store_record *items = stores.items;
  for (size_t i = 0; i < stores.count; i++) {
    if (unique == 0 || compare_stores(&items[unique - 1], &items[i]) != 0) {
      items[unique++] = items[i];
      continue;
    }
    items[unique - 1].published |= items[i].published;
    if (!items[i].bits || !items[unique - 1].bits)
      items[unique - 1].bits = 0;
    else
      items[unique - 1].bits |= items[i].bits;
  }
  struct bp_store_index *index = malloc(sizeof *index);
  if (!index)
    abort();
  *index = (struct bp_store_index){items, unique, nonzero_writer, zero_writer, NULL, NULL};
  index_store_events(engine, index);
  return index;
}

void bp_free_pairs(bp_analysis *analysis) {
  if (!analysis->stores)
    return;
  free(analysis->stores->stores);
  free(analysis->stores->nonzero_writer);
  free(analysis->stores->zero_writer);
  free(analysis->stores->store_events);
  free(analysis->stores->events_from);
  free(analysis->stores);
  analysis->stores = NULL;
}

/* Where the stores of `object` begin in the index. */
static size_t first_store_of(const struct bp_store_index *index, uint32_t object) {
  size_t low = 0, high = index->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (index->stores[middle].object < object)
      low = middle + 1;
    else
      high = middle;
  }
  return low;
}

/* Whether stores that change `bits` can change what two loads testing
 * `a` and `b` read (0: all bits, in each). */
static bool seen_by_both(uint64_t bits, uint64_t a, uint64_t b) {
  return (!bits || !a || (bits & a)) && (!bits || !b || (bits & b));
}

static bool stores(const struct bp_store_index *index, uint32_t object, uint32_t function) {
  store_record key = {object, function, 0, false};
  return index->count &&
         bsearch(&key, index->stores, index->count, sizeof key, compare_stores) != NULL;
}

static const char *exclusive_group(const bp_engine *engine, const bp_ordering *side);

/* Every store of `object` by a function other than the two sides holds a
 * lock that `partner` holds at both its accesses; and there is one. */
static bool writers_serialised_with(const bp_analysis *analysis, uint32_t object,
                                    const bp_ordering *side, const bp_ordering *partner) {
  const struct bp_store_index *index = analysis->stores;
  bool any = false;
  for (size_t i = index->events_from[object]; i < index->events_from[object + 1]; i++) {
    uint32_t store = index->store_events[i];
    uint32_t function = bp_event_get(analysis->engine, store)->function;
    if (function == side->function || function == partner->function)
      continue;
    const uint32_t held[3] = {store, partner->first, partner->second};
    if (!bp_hold_common_lock(analysis, held, 3))
      return false;
    any = true;
  }
  return any;
}

bool bp_third_writers_serialised(const bp_analysis *analysis, const bp_ordering *side,
                                 const bp_ordering *partner) {
  bool checked = false;
  if (side->first_kind == BP_ACCESS_LOAD && partner->second_kind == BP_ACCESS_LOAD) {
    if (!writers_serialised_with(analysis, side->first_object, side, partner))
      return false;
    checked = true;
  }
  if (side->second_kind == BP_ACCESS_LOAD && partner->first_kind == BP_ACCESS_LOAD) {
    if (!writers_serialised_with(analysis, side->second_object, side, partner))
      return false;
    checked = true;
  }
  return checked;
}

/* Whether `function` belongs to the library contract's group (BP_EXCLUSIVE)
 * `group` (NULL: none): the two never run at once. */
static bool in_group(const bp_engine *engine, uint32_t function, const char *group) {
  const char *own = group ? bp_exclusive_group(bp_function_name(engine, function)) : NULL;
  return own && strcmp(own, group) == 0;
}

/* A function other than f and g that stores bits of `object` the loads
 * `a` and `b` both test, into memory other threads can reach (not the
 * set-up of memory it has yet to publish: the publication orders that
 * store), and does not store `other` (BP_NO_OBJECT: any such function):
 * with `other`, a writer independent of `other`'s writers.
 * An object that neither side stores needs such a third function to store
 * it, or the pair orders nothing (the article's CPU 2 and CPU 3). A writer
 * that the library's contract runs one at a time with a side (the same
 * BP_EXCLUSIVE group as `sides`: a hash set's writers) is no third CPU:
 * what serialises the two orders its store before that side's accesses,
 * as in one thread (Concurrency Kit's `ck_hs_apply()` reading the probe
 * bounds another writer stored). */
static bool third_writer(const bp_analysis *analysis, uint32_t object, uint32_t other, uint32_t f,
                         uint32_t g, uint32_t a, uint32_t b, const bp_ordering *const sides[2]) {
  const bp_engine *engine = analysis->engine;
  const struct bp_store_index *index = analysis->stores;
  uint64_t a_bits = bp_event_get(engine, a)->bits;
  uint64_t b_bits = bp_event_get(engine, b)->bits;
  for (size_t i = first_store_of(index, object);
       i < index->count && index->stores[i].object == object; i++) {
    uint32_t function = index->stores[i].function;
    if (function != f && function != g && index->stores[i].published &&
        seen_by_both(index->stores[i].bits, a_bits, b_bits) &&
        (other == BP_NO_OBJECT || !stores(index, other, function)) &&
        !in_group(engine, function, exclusive_group(engine, sides[0])) &&
        !in_group(engine, function, exclusive_group(engine, sides[1])))
      return true;
  }
  return false;
}

/* Two accesses to memory not yet published: nobody else sees their order.
 * Nor does anybody see a shared access ordered before one to memory not
 * yet published (`xchg(&cache[i], NULL); item->owner = me; ...;
 * publish(item)`): another thread reaches that memory only through the
 * publication, which comes later, so what the claim orders is the
 * publication's business (its payload pairs), not this access's. */
static bool unpublished_side(const bp_ordering *side) {
  return side->second_flags & BP_ACCESS_UNPUBLISHED;
}

/* `side` begins with an access to memory it has not yet published; the
 * partner's access to that object must come first. Only a load of it can:
 * reading it after the publication and still seeing what was there before
 * the side's store is the message-passing bug. A store of it, or a value
 * the side's load reads from the partner, needs the partner to have
 * reached memory nobody could find yet (`arena->x = v; r = arena->x;
 * arenas[i] = arena` against a writer of `arena->x`). */
static bool unreachable_before_publication(const bp_ordering *side, const bp_ordering *partner) {
  return (side->first_flags & BP_ACCESS_UNPUBLISHED) &&
         (side->first_kind == BP_ACCESS_LOAD || partner->second_kind == BP_ACCESS_STORE);
}

/* Memory that one side has just allocated and not yet published, and that
 * the other side reaches through a pointer loaded from some third object
 * (`a = atomic_load(&arenas[i]); a->start` against `arena->start = start;
 * ...; count++; arenas[i] = arena`): the other side finds this instance only
 * through that pointer's publication, which is what orders it (an address
 * dependency), whatever the pair's other object says. */
static bool fresh_reached_elsewhere(const bp_engine *engine, uint32_t fresh, uint32_t reached,
                                    uint32_t other_object) {
  return bp_event_get(engine, fresh)->unpublished &&
         bp_event_addressed_through(engine, reached, BP_NO_OBJECT) &&
         !bp_event_addressed_through(engine, reached, other_object);
}

/* `replacer` works on what a pointer loaded from x points to, then stores a
 * new pointer to x (`json_decref(pair->value); pair->value = value`);
 * `reader` loads the pointer from x, then works on what it points to. Both
 * reach one instance only when the reader loaded the old pointer, before the
 * replacement: no cycle goes through the pair. */
static bool replaced_pointer(const bp_engine *engine, const bp_ordering *replacer,
                             const bp_ordering *reader) {
  return replacer->second_kind == BP_ACCESS_STORE &&
         bp_event_addressed_through(engine, replacer->first, replacer->second_object) &&
         reader->first_kind == BP_ACCESS_LOAD &&
         bp_event_addressed_through(engine, reader->second, reader->first_object);
}

/* After `access`, on every way on, its function stores into `object` a
 * value that is not known to be null: it publishes what it filled in
 * through that pointer. */
static bool publishes_through(const bp_analysis *analysis, uint32_t access, uint32_t object) {
  const bp_engine *engine = analysis->engine;
  const struct bp_store_index *index = analysis->stores;
  uint32_t function = bp_event_get(engine, access)->function;
  for (size_t i = index->events_from[object]; i < index->events_from[object + 1]; i++) {
    uint32_t id = index->store_events[i];
    const bp_event *store = bp_event_get(engine, id);
    if (store->function == function && !(store->value_known && store->stored_value == 0) &&
        bp_always_reaches(engine, access, id))
      return true;
  }
  return false;
}

/* `side` reaches its second access's instance through a pointer loaded
 * from some object C other than its first object, and the partner, after
 * its access of that instance, stores a pointer into C (a queue's node:
 * `work->func = f; enqueue(q, &work->next)` stores the node into the
 * previous node's `next`, which the dequeuer follows to read `func`). The
 * side finds the instance through C, so the pair through C (the address
 * dependency) orders it; what the side read before of another object (the
 * queue's tail, compared against) says nothing about which instance that
 * is. */
static bool found_through_other_pointer(const bp_analysis *analysis, const bp_ordering *side,
                                        const bp_ordering *partner) {
  const bp_event *second = bp_event_get(analysis->engine, side->second);
  for (size_t i = 0;
       analysis->stores && i < BP_GUARDS_MAX && second->address_sources[i] != BP_NO_OBJECT; i++) {
    uint32_t pointer = second->address_sources[i];
    if (pointer != side->first_object && pointer != side->second_object &&
        publishes_through(analysis, partner->first, pointer))
      return true;
  }
  return false;
}

/* The partner publishes the instance it accessed first (its second access
 * stores the pointer its first access started from: `e->valid = 1;
 * smp_store_release(&default_v4, e)`), and the side reaches its second
 * access's instance through pointers it loaded, none of them from the
 * object the partner published into (`e = READ_ONCE(default_v6);
 * e->valid`): that instance was handed over by another publication, which
 * orders its set-up; the partner's says nothing of it. */
static bool published_elsewhere(const bp_engine *engine, const bp_ordering *side,
                                const bp_ordering *partner) {
  const bp_event *publication = bp_event_get(engine, partner->second);
  const bp_event *set_up = bp_event_get(engine, partner->first);
  if (publication->kind != BP_ACCESS_STORE || publication->value_root == BP_NO_ROOT ||
      set_up->root != publication->value_root)
    return false;
  return bp_event_addressed_through(engine, side->second, BP_NO_OBJECT) &&
         !bp_event_addressed_through(engine, side->second, side->first_object);
}

/* `side` orders an access before a read-modify-write's load, and the
 * partner only reads the object: the write half is coherence-after that
 * load, so a value the partner reads that is newer than the load's is no
 * older than the write's. The pair through the write half (message
 * passing) is the one that orders it; through the load half it asks for
 * more than that (a full barrier on the reader). A partner that writes the
 * object is another matter (Dekker with an exchange). */
static bool rmw_read_by_partner(const bp_engine *engine, const bp_ordering *side,
                                const bp_ordering *partner) {
  return side->second_kind == BP_ACCESS_LOAD && bp_read_modify_write(engine, side->second) &&
         partner->first_kind == BP_ACCESS_LOAD;
}

static bool own_instances(const bp_engine *engine, uint32_t a, uint32_t b);

/* A store that only adds to a count whose tested bits were already
 * non-zero (a nested rcu_read_lock(): `ctr = tmp + COUNT` on the branch of
 * `if (!(tmp & NEST_MASK))` where they are), against a load that tests
 * those bits: the load finds them non-zero before and after, so the store
 * is no link (bp_set_stored_increment). */
static bool keeps_tested_bits(const bp_event *store, const bp_event *load) {
  return store->kind == BP_ACCESS_STORE && store->stored_increment && store->value_guard_bits &&
         !store->value_guard_zero && store->value_guard_object == store->object &&
         load->kind == BP_ACCESS_LOAD && load->bits == store->value_guard_bits;
}

/* A load whose value the code tests only through some bits of its object,
 * and a store that changes only other bits (a worker's `uatomic_read(&flags)
 * & PAUSED` against `uatomic_or(&flags, STOP)`): the load never tells
 * whether the store happened, so the two are no link. Nor are two stores
 * of other bits (each a read-modify-write of its own bits): whichever comes
 * first, the word ends with both. Two loads link through a third
 * function's store (third_writer). Nor is a count's increment that keeps
 * the tested bits non-zero (keeps_tested_bits). */
static bool other_bits(const bp_engine *engine, uint32_t a, uint32_t b) {
  const bp_event *x = bp_event_get(engine, a), *y = bp_event_get(engine, b);
  if (keeps_tested_bits(x, y) || keeps_tested_bits(y, x))
    return true;
  return (x->kind == BP_ACCESS_STORE || y->kind == BP_ACCESS_STORE) && x->bits && y->bits &&
         !(x->bits & y->bits);
}

bool bp_taken_elsewhere(const bp_engine *engine, uint32_t access, uint32_t other_object) {
  const bp_event *event = bp_event_get(engine, access);
  return event->kind == BP_ACCESS_LOAD && event->unpublished &&
         bp_event_addressed_through(engine, access, BP_NO_OBJECT) &&
         !bp_event_addressed_through(engine, access, other_object);
}

/* `tail` is `chain` or the end of it, from one of its '>' on. */
static bool chain_ends_with(const char *chain, const char *tail) {
  size_t length = strlen(chain), tail_length = strlen(tail);
  return tail_length <= length && strcmp(chain + length - tail_length, tail) == 0 &&
         (tail_length == length || chain[length - tail_length - 1] == '>');
}

static bool set_up_before_use(const bp_event *set_up, const bp_event *use) {
  return set_up->set_up_flag != BP_NO_OBJECT && set_up->set_up_flag == use->after_set_up;
}

bool bp_set_up_before(const bp_engine *engine, uint32_t a, uint32_t b) {
  const bp_event *first = bp_event_get(engine, a), *second = bp_event_get(engine, b);
  return set_up_before_use(first, second) || set_up_before_use(second, first);
}

bool bp_disjoint_subtypes(const bp_engine *engine, uint32_t a, uint32_t b) {
  const char *x = bp_event_subtype(engine, a), *y = bp_event_subtype(engine, b);
  return *x && *y && !chain_ends_with(x, y) && !chain_ends_with(y, x);
}

bool bp_accesses_meet(const bp_engine *engine, uint32_t a, uint32_t a_other, uint32_t b,
                      uint32_t b_other) {
  return !other_bits(engine, a, b) && !bp_disjoint_subtypes(engine, a, b) &&
         !fresh_reached_elsewhere(engine, a, b, a_other) &&
         !fresh_reached_elsewhere(engine, b, a, b_other) && !own_instances(engine, a, b) &&
         !bp_other_builds(engine, bp_event_get(engine, a)->function,
                          bp_event_get(engine, b)->function);
}

/* A pair's link on one object goes from `earlier` (the access of one side
 * that must come first) to `later` (the other side's). Where both are
 * halves of read-modify-writes, the two follow each other in the object's
 * modification order and the later reads what the earlier wrote: the link
 * is the earlier's write read by the later's read, and a pairing through
 * any other two halves of the same two operations claims nothing that one
 * does not (a push's compare-and-swap of a stack's head against a
 * consumer's exchange of it). */
static bool other_halves_of_rmws(const bp_engine *engine, uint32_t earlier, uint32_t later) {
  return bp_read_modify_write(engine, earlier) && bp_read_modify_write(engine, later) &&
         (bp_event_get(engine, earlier)->kind != BP_ACCESS_STORE ||
          bp_event_get(engine, later)->kind != BP_ACCESS_LOAD);
}

/* Whether the two sides can reach one instance of each object (other than
 * by the type that names the objects). */
static bool same_instances_reachable(const bp_engine *engine, const bp_ordering *cpu0,
                                     const bp_ordering *cpu1) {
  if (fresh_reached_elsewhere(engine, cpu0->first, cpu1->second, cpu0->second_object) ||
      fresh_reached_elsewhere(engine, cpu1->second, cpu0->first, cpu0->second_object) ||
      fresh_reached_elsewhere(engine, cpu0->second, cpu1->first, cpu0->first_object) ||
      fresh_reached_elsewhere(engine, cpu1->first, cpu0->second, cpu0->first_object))
    return false;
  return !replaced_pointer(engine, cpu0, cpu1) && !replaced_pointer(engine, cpu1, cpu0);
}

static bool building_block(const char *type) {
  size_t length = strlen(type);
  return length > 0 && type[length - 1] == BP_BUILDING_BLOCK;
}

/* A link of a pairing where one side reaches its field only through a
 * pointer to a building block (a neighbour's `list_head.next` in
 * `__list_del()`): nothing says the two sides meet on one instance, and a
 * pairing claims both links do. */
static bool building_block_link(const bp_engine *engine, uint32_t a, uint32_t b) {
  return building_block(bp_event_root_type(engine, a)) ||
         building_block(bp_event_root_type(engine, b));
}

/* Two accesses to one type's field, each within a container of its own
 * (`ctx->list.next` and `inode->i_flctx->flc_lease.next`, both named
 * `list_head.next` by type): different memory, unless one container holds
 * the other (`tp->inet_conn.icsk_inet.sk.sk_state` and
 * `inet->sk.sk_state`), where one path ends the other. One path from
 * containers of two types is two memories too: two units' own copies of
 * one structure (liburcu's flavours each define `struct call_rcu_data`,
 * whose `cbs_tail.p` is a `cds_wfcq_tail.p` of the header's queue), or two
 * structures that name a field alike. */
bool bp_distinct_instances(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (bp_disjoint_subtypes(engine, a, b))
    return true;
  const char *x = bp_event_instance_path(engine, a), *y = bp_event_instance_path(engine, b);
  const char *x_variable = bp_event_variable_path(engine, a);
  const char *y_variable = bp_event_variable_path(engine, b);
  /* Two globals' fields, or two fields of one global, are one memory only
   * where they are one instance (`acked.ready` is not `sent.ready`); a
   * global's field and a field reached in a container of some type are
   * one only where the global holds that container on the way, so that
   * its path ends with the container's (`__num_online_cpus.counter` is no
   * `.work_in_progress.counter` of any `kfree_rcu_cpu`). */
  if (x_variable && y_variable)
    return bp_event_instance_object(engine, a) != bp_event_instance_object(engine, b);
  if ((x_variable && y) || (x && y_variable)) {
    const char *global = x_variable ? x_variable : y_variable, *inner = x_variable ? y : x;
    size_t global_length = strlen(global), inner_length = strlen(inner);
    return inner_length > global_length ||
           strcmp(global + global_length - inner_length, inner) != 0;
  }
  if (!x || !y)
    return false;
  size_t x_length = strlen(x), y_length = strlen(y);
  if (x_length > y_length)
    return strcmp(x + x_length - y_length, y) != 0;
  if (x_length < y_length)
    return strcmp(y + y_length - x_length, x) != 0;
  if (strcmp(x, y) != 0)
    return true;
  size_t x_container, y_container;
  const char *p = bp_event_instance_container(engine, a, &x_container);
  const char *q = bp_event_instance_container(engine, b, &y_container);
  return x_container != y_container || strncmp(p, q, x_container) != 0;
}

bool bp_may_reach_one_instance(const bp_engine *engine, uint32_t object, uint32_t a, uint32_t b) {
  if (bp_variable_object(engine, object))
    return true;
  if (bp_disjoint_subtypes(engine, a, b))
    return false;
  const bp_event *first = bp_event_get(engine, a), *second = bp_event_get(engine, b);
  if (first->root == BP_NO_ROOT || second->root == BP_NO_ROOT)
    return false;
  const char *x = bp_event_root_type(engine, a), *y = bp_event_root_type(engine, b);
  if (building_block(x) || building_block(y))
    return false;
  if (first->root_type == second->root_type)
    return true;
  /* "T@g" (the global g of type T) and "T" (through a pointer to a T) */
  const char separator[] = {BP_INSTANCE_SEPARATOR, '\0'};
  size_t x_type = strcspn(x, separator), y_type = strcspn(y, separator);
  return x_type == y_type && (!x[x_type] || !y[y_type]) && strncmp(x, y, x_type) == 0;
}

static bool own_instances(const bp_engine *engine, uint32_t a, uint32_t b) {
  return bp_event_get(engine, a)->thread_own && bp_event_get(engine, b)->thread_own;
}

/* Two writers of one object that the code serialises some other way: a
 * writer that reads the object plainly assumes nobody else stores it
 * meanwhile (a single-writer design: RCU updaters, Concurrency Kit's
 * structures, whose writers the caller serialises), unless the pair's
 * stores of it are read-modify-writes (lock-free writers that do race).
 * Two writers that really race mark their stores and never read plainly
 * what they share. */
static bool serialised_writers(const bp_analysis *analysis, const bp_ordering *cpu0,
                               const bp_ordering *cpu1) {
  const bp_engine *engine = analysis->engine;
  /* a reference count is what serialises the uses of the memory it counts
   * with its teardown: that order is the one to check */
  if (bp_reference_count(analysis, cpu0->first_object) ||
      bp_reference_count(analysis, cpu0->second_object))
    return false;
  const struct {
    uint32_t object, access0, access1;
  } shared[2] = {
      {cpu0->first_object, cpu0->first, cpu1->second},
      {cpu0->second_object, cpu0->second, cpu1->first},
  };
  for (int i = 0; i < 2; i++) {
    if (!bp_read_modify_write(engine, shared[i].access0) &&
        !bp_read_modify_write(engine, shared[i].access1) &&
        bp_serialised_writers(analysis, cpu0->function, cpu1->function, shared[i].object))
      return true;
  }
  return false;
}

/* The next store of `object` from `*cursor` on (an index into the
 * store index's events) that other threads may see: not the set-up of
 * memory not yet published, nor a store made before any thread starts.
 * NULL past the last. */
static const bp_event *next_visible_store(const bp_analysis *analysis, uint32_t object,
                                          size_t *cursor) {
  const struct bp_store_index *index = analysis->stores;
  while (*cursor < index->events_from[object + 1]) {
    uint32_t id = index->store_events[(*cursor)++];
    const bp_event *store = bp_event_get(analysis->engine, id);
    if (!store->unpublished && !bp_before_all_threads(analysis, id))
      return store;
  }
  return NULL;
}

/* The test of a loaded value that decides whether `access` runs, where
 * that load is the one at `load`, of `object`: the nearest such test or
 * the next one out. */
typedef struct {
  bool found;
  uint64_t bits; /* the bits tested; 0: the whole value */
  bool zero;     /* it runs only when they read zero */
} guard_test;

static guard_test guard_at(const bp_event *access, uint32_t object, bp_location load) {
  if (access->value_guard.line && access->value_guard_object == object &&
      bp_same_location(access->value_guard, load))
    return (guard_test){true, access->value_guard_bits, access->value_guard_zero};
  if (access->outer_guard.line && access->outer_guard_object == object &&
      bp_same_location(access->outer_guard, load))
    return (guard_test){true, access->outer_guard_bits, access->outer_guard_zero};
  return (guard_test){false, 0, false};
}

/* Some store of `object` that other threads may see writes a value the
 * masked test `guard` lets through, or a value not known (the writers'
 * index keeps whole values only). */
static bool masked_store_passes(const bp_analysis *analysis, uint32_t object, guard_test guard) {
  size_t cursor = analysis->stores->events_from[object];
  for (const bp_event *store; (store = next_visible_store(analysis, object, &cursor));) {
    const bp_primitive *primitive = bp_primitive_get(store->primitive);
    bool atomic = primitive && bp_op_is_rmw(primitive->op);
    /* an atomic OR or AND of other bits leaves the tested ones as it
     * read them (a plain `flags &= ~PAUSE` may write back a stale word) */
    if (store->bits && !(store->bits & guard.bits) && atomic)
      continue;
    /* an atomic OR of a tested bit leaves the test non-zero; an atomic
     * AND that clears every tested bit leaves it zero */
    if (store->bits && atomic && primitive->op == BP_OP_OR) {
      if (guard.zero)
        continue;
      return true;
    }
    if (store->bits && atomic && primitive->op == BP_OP_AND && !(guard.bits & ~store->bits)) {
      if (!guard.zero)
        continue;
      return true;
    }
    if (!store->value_known || ((store->stored_value & guard.bits) == 0) == guard.zero)
      return true;
  }
  return false;
}

/* Some store of `object` that `function` makes and other threads may see
 * writes a value the whole-value test (`zero`: it lets zero through) lets
 * through, or one not known. */
static bool own_store_passes(const bp_analysis *analysis, uint32_t object, uint32_t function,
                             bool zero) {
  size_t cursor = analysis->stores->events_from[object];
  for (const bp_event *store; (store = next_visible_store(analysis, object, &cursor));) {
    if (store->function != function)
      continue;
    bool may_be_zero = !store->value_known ? !store->stored_nonzero : store->stored_value == 0;
    bool may_be_other = !store->value_known || store->stored_value != 0;
    if (zero ? may_be_zero : may_be_other)
      return true;
  }
  return false;
}

/* `side`, CPU `cpu` of `scenario`, reaches its second access only when its
 * first load read zero (or only when it read something else, or only when
 * some bits of it were, or were not, zero), and every store of that object
 * writes a value the test turns away (a flag that is only ever set: `if
 * (CMM_LOAD_SHARED(ht->in_progress_destroy)) break;` against
 * `_CMM_STORE_SHARED(ht->in_progress_destroy, 1)`). The outcome needs that
 * load to read the partner's store or one after it in the object's order,
 * and then the side stops. In a row the pair sees in its own loads, the
 * partner's stores alone decide (the kernel's `release_cb` reads its
 * socket's route only where `sk_dst_cache` is set, against a disconnect
 * that only clears it): another function's later store that lets the
 * side through is a pairing of that function's, with a third CPU, which
 * only --beta reports; with --beta every store of the object counts. */
static bool turned_away(const bp_analysis *analysis, const bp_ordering *side,
                        const bp_ordering *partner, int scenario, int cpu) {
  const bp_engine *engine = analysis->engine;
  const bp_event *first = bp_event_get(engine, side->first);
  const bp_event *second = bp_event_get(engine, side->second);
  if (!analysis->stores || side->first_kind != BP_ACCESS_LOAD ||
      !bp_scenario_reads_new_first(scenario, cpu))
    return false;
  guard_test guard = guard_at(second, side->first_object, first->location);
  if (!guard.found)
    return false;
  const struct bp_store_index *stores = analysis->stores;
  uint32_t object = side->first_object;
  bool stored =
      stores->zero_writer[object] != NO_WRITER || stores->nonzero_writer[object] != NO_WRITER;
  if (guard.bits)
    return stored && !masked_store_passes(analysis, object, guard);
  if (!analysis->options->beta && bp_scenario_seen_by_pair(scenario) && stored)
    return !own_store_passes(analysis, object, partner->function, guard.zero);
  /* no store writes a value the test lets through */
  return stored && passing_writer(stores, object, guard.zero) == NO_WRITER;
}

/* A load of `object` at `location` in `function` that every way from
 * event `from` to event `to` passes. */
static bool load_between(const bp_engine *engine, uint32_t function, uint32_t object,
                         bp_location location, uint32_t from, uint32_t to) {
  const bp_function *code = bp_vec_at(&engine->functions, function);
  for (size_t b = 0; b < code->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&code->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      const bp_event *event = bp_event_get(engine, id);
      if (event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_LOAD &&
          event->object == object && bp_same_location(event->location, location) &&
          bp_every_way_passes(engine, from, id, to))
        return true;
    }
  }
  return false;
}

/* `side` stores a known value into X first, and reaches its second access
 * only through a test of X, read after that store, that the value turns
 * away, as every store of X that other threads make does too (liburcu's
 * fork handler sets a call_rcu thread's `flags` to STOPPED, then frees it,
 * waking the thread only `if ((uatomic_read(&crdp->flags) &
 * URCU_CALL_RCU_STOPPED) == 0)`, a bit nothing clears). The test reads the
 * side's own store or a later one: the second access never follows the
 * first, and the side orders nothing. */
static bool shut_out_by_own_store(const bp_analysis *analysis, const bp_ordering *side) {
  const bp_engine *engine = analysis->engine;
  const bp_event *first = bp_event_get(engine, side->first);
  const bp_event *second = bp_event_get(engine, side->second);
  if (!analysis->stores || side->first_kind != BP_ACCESS_STORE || !first->value_known)
    return false;
  const struct {
    bp_location load;
    uint32_t object;
    guard_test test;
  } guards[2] = {
      {second->value_guard,
       second->value_guard_object,
       {true, second->value_guard_bits, second->value_guard_zero}},
      {second->outer_guard,
       second->outer_guard_object,
       {true, second->outer_guard_bits, second->outer_guard_zero}},
  };
  uint32_t object = side->first_object;
  for (size_t g = 0; g < 2; g++) {
    guard_test test = guards[g].test;
    if (!guards[g].load.line || guards[g].object != object)
      continue;
    uint64_t value = test.bits ? first->stored_value & test.bits : first->stored_value;
    if ((value == 0) == test.zero)
      continue; /* the side's own store lets it through */
    bool others_pass = test.bits ? masked_store_passes(analysis, object, test)
                                 : passing_writer(analysis->stores, object, test.zero) != NO_WRITER;
    if (!others_pass &&
        load_between(engine, side->function, object, guards[g].load, side->first, side->second))
      return true;
  }
  return false;
}

/* Every store of `object` that other threads may see and that may write
 * zero (`zero`) or a non-zero value is the code at `place`: one helper's
 * store, lowered into each of its callers (QSBR's grace period, run by
 * synchronize_rcu() and inlined into the call_rcu thread). */
static bool passing_stores_at(const bp_analysis *analysis, uint32_t object, bool zero,
                              bp_location place) {
  size_t cursor = analysis->stores->events_from[object];
  for (const bp_event *store; (store = next_visible_store(analysis, object, &cursor));) {
    bool passes = store->value_known      ? (store->stored_value == 0) == zero
                  : store->stored_nonzero ? !zero
                                          : true;
    if (passes && !bp_same_location(store->location, place))
      return false;
  }
  return true;
}

/* `side` stores X first only under a test of its own load of X, which
 * lets the store run only on a value that `partner`, whose access of X is
 * a store too, alone writes (liburcu-qsbr's reader: `if (waiting) {
 * waiting = 0; cmm_smp_mb(); ... futex }` against the writer's `waiting =
 * 1`; several functions that run one helper's store are one writer). The
 * store comes after the partner's in X's order because the load read it:
 * the pairing that decides is the load's, before the same second access
 * (message passing), not this one. */
static bool stores_after_reading(const bp_analysis *analysis, const bp_ordering *side,
                                 uint32_t partner_access) {
  const bp_engine *engine = analysis->engine;
  const bp_event *first = bp_event_get(engine, side->first);
  if (!analysis->stores || side->first_kind != BP_ACCESS_STORE || first->value_guard.line == 0 ||
      first->value_guard_bits || first->value_guard_object != side->first_object ||
      bp_event_get(engine, partner_access)->kind != BP_ACCESS_STORE)
    return false;
  const bp_event *partner = bp_event_get(engine, partner_access);
  uint32_t writer = passing_writer(analysis->stores, side->first_object, first->value_guard_zero);
  return writer == partner->function ||
         (writer == MANY_WRITERS && passing_stores_at(analysis, side->first_object,
                                                      first->value_guard_zero, partner->location));
}

/* The group of a library's contract (BP_EXCLUSIVE) that `side` runs in:
 * its function's, or that of the functions whose code holds both its
 * accesses (the helpers _LGPL_SOURCE code inlines); NULL for none. */
static const char *exclusive_group(const bp_engine *engine, const bp_ordering *side) {
  const char *group = bp_exclusive_group(bp_function_name(engine, side->function));
  if (group)
    return group;
  const char *first = bp_exclusive_group(bp_event_callee(engine, side->first));
  const char *second = bp_exclusive_group(bp_event_callee(engine, side->second));
  return first && second && strcmp(first, second) == 0 ? first : NULL;
}

bool bp_can_pair(const bp_analysis *analysis, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  if (bp_other_builds(analysis->engine, cpu0->function, cpu1->function))
    return false; /* two builds of one source (liburcu's flavours) */
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  const bp_ordering *const sides[2] = {cpu0, cpu1};
  if (!x0 && !x1 &&
      !third_writer(analysis, cpu0->first_object, BP_NO_OBJECT, cpu0->function, cpu1->function,
                    cpu0->first, cpu1->second, sides))
    return false;
  if (!y0 && !y1 &&
      !third_writer(analysis, cpu0->second_object, BP_NO_OBJECT, cpu0->function, cpu1->function,
                    cpu0->second, cpu1->first, sides))
    return false;
  /* Two readers (IRIW) disagree only on the order of two independent
   * stores: a writer of x that does not write y, and one of y that does not
   * write x. Where every writer writes both, the writers' own pairing with
   * each reader is what orders them. */
  if (!x0 && !x1 && !y0 && !y1 &&
      (!third_writer(analysis, cpu0->first_object, cpu0->second_object, cpu0->function,
                     cpu1->function, cpu0->first, cpu1->second, sides) ||
       !third_writer(analysis, cpu0->second_object, cpu0->first_object, cpu0->function,
                     cpu1->function, cpu0->second, cpu1->first, sides)))
    return false;
  if (other_bits(analysis->engine, cpu0->second, cpu1->first) ||
      other_bits(analysis->engine, cpu1->second, cpu0->first))
    return false; /* flags: each side's load tests bits the other's store leaves alone */
  if (unpublished_side(cpu0) || unpublished_side(cpu1))
    return false; /* initialisation before publication */
  if (unreachable_before_publication(cpu0, cpu1) || unreachable_before_publication(cpu1, cpu0))
    return false;
  if (!same_instances_reachable(analysis->engine, cpu0, cpu1))
    return false;
  if (building_block_link(analysis->engine, cpu0->first, cpu1->second) ||
      building_block_link(analysis->engine, cpu0->second, cpu1->first))
    return false;
  if (bp_distinct_instances(analysis->engine, cpu0->first, cpu1->second) ||
      bp_distinct_instances(analysis->engine, cpu0->second, cpu1->first))
    return false; /* a pairing claims both links meet on one instance */
  if (!cpu0->instances_go_together || !cpu1->instances_go_together)
    return false;
  /* each side's two go together; one of the objects must be one the two
   * sides may share */
  if (!bp_may_reach_one_instance(analysis->engine, cpu0->first_object, cpu0->first, cpu1->second) &&
      !bp_may_reach_one_instance(analysis->engine, cpu0->second_object, cpu0->second, cpu1->first))
    return false;
  if (found_through_other_pointer(analysis, cpu0, cpu1) ||
      found_through_other_pointer(analysis, cpu1, cpu0))
    return false;
  if (published_elsewhere(analysis->engine, cpu0, cpu1) ||
      published_elsewhere(analysis->engine, cpu1, cpu0))
    return false;
  if (rmw_read_by_partner(analysis->engine, cpu0, cpu1) ||
      rmw_read_by_partner(analysis->engine, cpu1, cpu0))
    return false;
  const bp_engine *engine = analysis->engine;
  if (other_halves_of_rmws(engine, cpu1->second, cpu0->first) ||
      other_halves_of_rmws(engine, cpu0->second, cpu1->first))
    return false;
  if (own_instances(analysis->engine, cpu0->first, cpu1->second) ||
      own_instances(analysis->engine, cpu0->second, cpu1->first))
    return false; /* each thread's own thread-local instance: not one object */
  if (bp_before_thread(analysis, cpu0->first, cpu1->function) ||
      bp_before_thread(analysis, cpu1->first, cpu0->function) ||
      bp_after_thread(analysis, cpu0->second, cpu1->function) ||
      bp_after_thread(analysis, cpu1->second, cpu0->function))
    return false; /* one side started the other's thread after its first access, or
                     joined it before its second */
  int scenario = bp_pair_scenario(cpu0, cpu1);
  if (turned_away(analysis, cpu0, cpu1, scenario, 0) ||
      turned_away(analysis, cpu1, cpu0, scenario, 1))
    return false;
  if (shut_out_by_own_store(analysis, cpu0) || shut_out_by_own_store(analysis, cpu1))
    return false;
  if (stores_after_reading(analysis, cpu0, cpu1->second) ||
      stores_after_reading(analysis, cpu1, cpu0->second))
    return false;
  /* One link's two accesses in critical sections of one lock: the sections
   * run one after the other, and the unlock of the first (a release)
   * orders everything its side did before it before everything the other
   * side does after its lock (an acquire). Whichever runs first, that side's
   * link goes first too: the row's cycle cannot close (LKMM's locking). */
  uint32_t x_link[2] = {cpu0->first, cpu1->second}, y_link[2] = {cpu0->second, cpu1->first};
  if (bp_hold_common_lock(analysis, x_link, 2) || bp_hold_common_lock(analysis, y_link, 2))
    return false;
  /* one link's first access a lazy set-up, its second after the call that
   * set it up: that link goes first, whichever side runs first */
  if (bp_set_up_before(engine, x_link[0], x_link[1]) ||
      bp_set_up_before(engine, y_link[0], y_link[1]))
    return false;
  const char *group = exclusive_group(engine, cpu0);
  const char *partner_group = group ? exclusive_group(engine, cpu1) : NULL;
  if (partner_group && strcmp(group, partner_group) == 0)
    return false; /* the library's contract runs them one at a time */
  return !serialised_writers(analysis, cpu0, cpu1);
}

int bp_pair_scenario(const bp_ordering *cpu0, const bp_ordering *cpu1) {
  bool x0 = cpu0->first_kind == BP_ACCESS_STORE, y0 = cpu0->second_kind == BP_ACCESS_STORE;
  bool y1 = cpu1->first_kind == BP_ACCESS_STORE, x1 = cpu1->second_kind == BP_ACCESS_STORE;
  return bp_scenario_number(x0, y0, y1, x1);
}

void bp_for_each_mirror(bp_analysis *analysis, bp_mirror_visitor visit) {
  const bp_vec *orderings = &analysis->orderings;
  for (size_t i = 0; i < orderings->count; i++) {
    const bp_ordering *cpu0 = bp_vec_at(orderings, i);
    if (cpu0->first_object > cpu0->second_object)
      continue; /* each unordered pair once: from the side with the lower object first */
    size_t j;
    size_t end = bp_orderings_between(analysis, cpu0->second_object, cpu0->first_object, &j);
    for (; j < end; j++) {
      const bp_ordering *cpu1 = bp_vec_at(orderings, j);
      if (cpu1->function != cpu0->function)
        visit(analysis, cpu0, cpu1);
    }
  }
}

/* A side whose order nobody claimed (a default order, locks') pairs only
 * with a barrier or an ordered access written for the order: not with a
 * plain dependency (an hlist walk's next pointer, read through the head it
 * loaded), which may be there for the walk alone. */
static bool claim_met(const bp_engine *engine, const bp_ordering *side,
                      const bp_ordering *partner) {
  return bp_claimed(side) || (bp_claimed(partner) && !bp_dependency(engine, partner->barrier));
}

/* Release and acquire order only for the functions that read from each
 * other (LKMM: they are not cumulative): enough when at most one of the
 * pair's two links is not a reads-from. A store read by the other side is
 * one, and so is a store that the other side's read-modify-write overwrites
 * (it reads the latest value). So is any link between two read-modify-writes
 * of one object: they follow each other in its modification order, and the
 * later reads what the earlier wrote (a push's compare-and-swap of a
 * stack's head against a consumer's exchange of it). Store buffering, R and
 * IRIW need full barriers. */
static bool reads_from(const bp_engine *engine, uint32_t from, uint32_t to) {
  const bp_event *source = bp_event_get(engine, from), *target = bp_event_get(engine, to);
  if (bp_read_modify_write(engine, from) && bp_read_modify_write(engine, to))
    return true;
  return source->kind == BP_ACCESS_STORE &&
         (target->kind == BP_ACCESS_LOAD || bp_read_modify_write(engine, to));
}

bool bp_local_order_suffices(const bp_engine *engine, const bp_ordering *side,
                             const bp_ordering *partner) {
  int other_links = !reads_from(engine, side->second, partner->first) +
                    !reads_from(engine, partner->second, side->first);
  return other_links <= 1;
}

bool bp_dependency_too_weak(const bp_engine *engine, const bp_ordering *side, int scenario) {
  const bp_scenario *row = bp_scenario_get(scenario);
  return row && row->code[2] && row->code[2][0] && bp_dependency(engine, side->barrier);
}

bool bp_keeps_its_half(const bp_engine *engine, const bp_ordering *side, const bp_ordering *partner,
                       int scenario) {
  unsigned need = bp_scenario_need(scenario, 0);
  if ((side->strength & need) == need && !bp_dependency_too_weak(engine, side, scenario))
    return true;
  return (side->strength & BP_STRENGTH_LOCAL) && bp_local_order_suffices(engine, side, partner);
}

/* A fence written between the two accesses (not a dependency, an acquire
 * or release access, nor a compiler barrier). */
static bool written_fence(const bp_engine *engine, const bp_ordering *side) {
  if (side->barrier == BP_NO_EVENT)
    return false;
  const bp_event *barrier = bp_event_get(engine, side->barrier);
  return barrier->type == BP_EVENT_BARRIER && !barrier->implicit &&
         BP_STRENGTH_ORDER(barrier->strength) &&
         !(barrier->strength & (BP_STRENGTH_RELEASE | BP_STRENGTH_ACQUIRE | BP_STRENGTH_CONSUME));
}

bool bp_means_its_half(const bp_engine *engine, const bp_ordering *side, const bp_ordering *partner,
                       int scenario) {
  return !bp_scenario_third_cpu(scenario) || written_fence(engine, side) ||
         bp_keeps_its_half(engine, side, partner, scenario);
}

static bool row_meant(const bp_engine *engine, const bp_ordering *cpu0, const bp_ordering *cpu1) {
  int scenario = bp_pair_scenario(cpu0, cpu1);
  return bp_means_its_half(engine, cpu0, cpu1, scenario) ||
         bp_means_its_half(engine, cpu1, cpu0, bp_scenario_mirror(scenario));
}

/* Barriers that pair with barriers, which also say which functions run
 * concurrently. */
static void pair_if_barriered(bp_analysis *analysis, const bp_ordering *cpu0,
                              const bp_ordering *cpu1) {
  if (!cpu0->strength || !cpu1->strength || !claim_met(analysis->engine, cpu0, cpu1) ||
      !claim_met(analysis->engine, cpu1, cpu0) || !row_meant(analysis->engine, cpu0, cpu1) ||
      !bp_can_pair(analysis, cpu0, cpu1))
    return;
  bp_add_partners(analysis, cpu0->function, cpu1->function);
  const bp_ordering *first = analysis->orderings.items;
  *(bp_barrier_pair *)bp_vec_push(&analysis->barrier_pairs) = (bp_barrier_pair){
      (size_t)(cpu0 - first), (size_t)(cpu1 - first), bp_pair_scenario(cpu0, cpu1)};
}

bool bp_claimed(const bp_ordering *ordering) {
  return !ordering->by_default && !ordering->by_locks;
}

void bp_pair_barriers(bp_analysis *analysis) {
  analysis->stores = index_stores(analysis);
  bp_for_each_mirror(analysis, pair_if_barriered);
}
