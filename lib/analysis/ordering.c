/* Per function: for every access, what orders it before the accesses that
 * share a barrier's window with it. A barrier orders the accesses on its two
 * sides up to the neighbouring ordering points: from an access, the walk
 * crosses one group of barriers (adjacent barriers with no access between
 * them act as one) and stops at the next one. Two accesses far apart with
 * several barriers between them are not a claim anybody made. Accesses
 * before the first barrier are reached unordered: a side that is missing
 * its barrier.
 *
 * Over one path the barriers add up; over several paths only what every
 * path orders counts (a meet), so a barrier on one branch only does not
 * order the accesses around the branch. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#define UNREACHED 0xffu

/* Where a path from the source access is: before any barrier, in the first
 * group of barriers, or past an access after it (the next barrier ends the
 * window). */
enum { BEFORE_BARRIER, IN_BARRIER_GROUP, IN_WINDOW };

typedef struct {
  unsigned strength;
  uint32_t barrier;
  unsigned phase;
  bool left_source;   /* passed an access of another place than the source's */
  bool release_only;  /* the group so far orders only the release's own store */
  bool consume_only;  /* ... only the accesses through a consumed pointer */
  bool unlocked;      /* a kernel lock released, no access since */
  bool passed_unlock; /* a kernel lock released since the source, on every path */
  bool by_default;    /* every barrier of the group is a plain _Atomic access's */
  bool by_locks;      /* the group is a kernel unlock followed by a lock, and no barrier */
  bool unlock_lock;   /* ... with no smp_mb__after_unlock_lock(): no store before a load */
  bool past_unlock;   /* before the first barrier, the path left a critical section */
  bool read_again;    /* the source's location read again with an acquire or an RMW */
  bool around_loop;   /* went round a loop and left it (no _Atomic default order past it) */
  bp_location group;  /* where the group's acquire or release is written */
} path_state;

/* A function's loops: per loop edge's head, the blocks of its body (the head
 * and every block that reaches the edge's source without passing the
 * head), as bit sets of block_count bits. */
#define NO_LOOP UINT32_MAX
typedef struct {
  uint32_t *of_header; /* per block: its loop, NO_LOOP when it heads none */
  uint64_t *bodies;    /* loop i's bits: words [i * words, (i + 1) * words) */
  size_t words, count;
} loop_bodies;

static bool in_loop(const loop_bodies *loops, uint32_t loop, uint32_t block) {
  return loops->bodies[loop * loops->words + block / 64] >> (block % 64) & 1;
}

typedef struct {
  const bp_engine *engine;
  const bp_function *function;
  loop_bodies loops;
  const bool *ordering_calls; /* per event of the program, or NULL */
  uint32_t first_event;       /* a function's events have contiguous ids */
  uint32_t source;
  path_state *block_in; /* per block */
  path_state *reached;  /* per event of the function */
  bool *dependent;      /* per event: ordered after the source by a dependency */
  bool *serving;        /* per event: an rmb or wmb that orders two accesses of its kind */
  bool *guess;          /* per event: a load that a read-modify-write of its object checks */
  uint32_t *worklist;
  bool *queued;
  size_t worklist_count;
  /* what a source's walk reached: only these are read and reset */
  uint32_t *touched_events, *touched_blocks;
  size_t touched_event_count, touched_block_count;
} propagation;

/* Whether `function` (bp_event_contract's name; "" for none) has a
 * library's contract at `side`. */
static bool contract_at(const char *function, bp_contract_side side) {
  return bp_contract_find(function, strlen(function), side) != NULL;
}

/* A function a library's contract names is used by its callers through
 * the contract: what it orders between its own accesses and theirs is what
 * the contract states (ENTRY: the caller's earlier accesses, then its own;
 * EXIT: its own, then the caller's later ones). Where its code is lowered
 * into a caller, a side from its code out to the caller's later code with
 * no EXIT contract (call_rcu_wake_up()'s read of the futex word, which only
 * decides whether to wake the thread, before its caller's next read), or
 * from the caller's earlier code into it with no ENTRY contract, is a
 * claim nobody made. */
static bool crosses_unclaimed_contract(const propagation *p, const bp_event *from,
                                       const bp_event *to) {
  if (from->contract == to->contract)
    return false;
  const char *out = bp_interner_get(&p->engine->names, from->contract);
  const char *in = bp_interner_get(&p->engine->names, to->contract);
  return (out[0] && !contract_at(out, BP_CONTRACT_EXIT)) ||
         (in[0] && !contract_at(in, BP_CONTRACT_ENTRY));
}

static bool meet(path_state *into, path_state incoming) {
  if (into->strength == UNREACHED) {
    *into = incoming;
    return true;
  }
  unsigned strength = into->strength & incoming.strength;
  /* the path that is furthest from the window's end reaches the most */
  unsigned phase = incoming.phase < into->phase ? incoming.phase : into->phase;
  if (strength == into->strength && phase == into->phase &&
      (into->by_default || !incoming.by_default) && (into->by_locks || !incoming.by_locks) &&
      (into->unlock_lock || !incoming.unlock_lock) &&
      (into->past_unlock || !incoming.past_unlock) && (!into->read_again || incoming.read_again) &&
      (!into->around_loop || incoming.around_loop) &&
      (!into->passed_unlock || incoming.passed_unlock))
    return false;
  into->passed_unlock = into->passed_unlock && incoming.passed_unlock;
  into->phase = phase;
  into->around_loop = into->around_loop && incoming.around_loop;
  into->by_default = into->by_default || incoming.by_default;
  into->by_locks = into->by_locks || incoming.by_locks;
  into->unlock_lock = into->unlock_lock || incoming.unlock_lock;
  into->past_unlock = into->past_unlock || incoming.past_unlock;
  into->read_again = into->read_again && incoming.read_again;
  if (strength == into->strength)
    return true;
  /* keep the barrier of the weaker path: that is the one to report */
  into->barrier = incoming.strength < into->strength ? incoming.barrier : into->barrier;
  into->strength = strength;
  return true;
}

/* A marked load orders the stores that depend on it, as the Linux-kernel
 * memory model has it: a store its value decides (a control dependency), or
 * whose address or value it computes. The kernel's READ_ONCE() also orders
 * the loads whose address it computes (`p = READ_ONCE(gp);
 * READ_ONCE(p->next)`); liburcu's CMM_LOAD_SHARED() and Concurrency Kit's
 * loads need cmm_smp_read_barrier_depends() or ck_pr_fence_load_depends()
 * for that (Alpha reorders dependent loads). */
static bool depends_on_source(const propagation *p, uint32_t id, const bp_event *access) {
  const bp_event *source = bp_event_get(p->engine, p->source);
  if (source->kind != BP_ACCESS_LOAD || !source->marked)
    return false;
  const bp_primitive *primitive = bp_primitive_get(source->primitive);
  if (access->kind == BP_ACCESS_LOAD)
    return primitive && primitive->family == BP_FAMILY_KERNEL &&
           bp_event_addressed_through(p->engine, id, source->object);
  if (!bp_event_guarded_by(p->engine, id, source->object))
    return false;
  /* C11 does not order by dependencies (memory_order_consume is promoted
   * to acquire): a relaxed C11 or GCC atomic load orders nothing. */
  return !primitive || (primitive->family != BP_FAMILY_C11 && primitive->family != BP_FAMILY_GCC);
}

/* Whether a barrier met on the path starts or joins the window's group;
 * false when it orders nothing for this source (another access's acquire). */
static bool cross_barrier(const propagation *p, path_state *state, uint32_t id,
                          const bp_event *barrier) {
  const bp_event *source = bp_event_get(p->engine, p->source);
  unsigned strength = barrier->strength;
  if (strength & (BP_STRENGTH_ACQUIRE | BP_STRENGTH_CONSUME)) {
    /* only the acquiring load's own order, from that load: a
     * read-modify-write's store may still pass a later load */
    if (state->left_source || source->kind != BP_ACCESS_LOAD ||
        !bp_same_location(barrier->location, source->location))
      return false;
  }
  bool first = state->phase == BEFORE_BARRIER;
  if (strength & (BP_STRENGTH_RELEASE | BP_STRENGTH_ACQUIRE | BP_STRENGTH_CONSUME))
    state->strength |= BP_STRENGTH_LOADS | BP_STRENGTH_STORES | BP_STRENGTH_LOCAL;
  else
    state->strength |= BP_STRENGTH_ORDER(strength) | (strength & BP_STRENGTH_MEMBARRIER);
  /* the plugin writes a plain access to an _Atomic object as the access
   * between implicit full barriers of no primitive; messages name a barrier
   * written in the group rather than such an access */
  bool by_default = bp_barrier_by_default(p->engine, id);
  if (first || state->by_default || !by_default)
    state->barrier = id;
  state->by_default = by_default && (first || state->by_default);
  /* a barrier claims the order of its own stretch of code, not of what a
   * critical section before it did (the lock publishes that, to the next
   * holder); a publication claims the set-up of what it publishes, under a
   * lock or not */
  const bp_primitive *primitive = bp_primitive_get(barrier->primitive);
  state->by_locks = state->past_unlock && !(primitive && primitive->order == BP_ORDER_PUBLISH);
  state->unlock_lock = false;
  state->phase = IN_BARRIER_GROUP;
  bool release = strength & BP_STRENGTH_RELEASE, consume = strength & BP_STRENGTH_CONSUME;
  state->release_only = release && (first || state->release_only);
  state->consume_only = consume && (first || state->consume_only);
  if (release)
    state->group = barrier->location;
  return true;
}

static bool kernel_lock(const bp_event *event) {
  const bp_primitive *primitive = bp_primitive_get(event->primitive);
  return primitive && primitive->family == BP_FAMILY_KERNEL;
}

/* lockdep_assert_held(): the lock is held, not taken here */
static bool asserted_lock(const bp_event *event) {
  const bp_primitive *primitive = bp_primitive_get(event->primitive);
  return primitive && primitive->op == BP_OP_LOCK_HELD;
}

/* The one kind an rmb or a wmb orders: loads or stores. */
static bool of_kind(const bp_ordering *ordering, unsigned barrier_strength) {
  bp_access_kind kind = barrier_strength == BP_STRENGTH_LOADS ? BP_ACCESS_LOAD : BP_ACCESS_STORE;
  return ordering->first_kind == kind && ordering->second_kind == kind;
}

/* An rmb's or a wmb's strength; 0 for any other barrier. */
static unsigned weak_barrier_strength(const bp_engine *engine, uint32_t barrier_id) {
  if (barrier_id == BP_NO_EVENT)
    return 0;
  const bp_event *barrier = bp_event_get(engine, barrier_id);
  bool weak = barrier->strength == BP_STRENGTH_LOADS || barrier->strength == BP_STRENGTH_STORES;
  return barrier->type == BP_EVENT_BARRIER && weak ? barrier->strength : 0;
}

/* A load on one side of a wmb that orders stores there (or a store next to
 * an rmb that orders loads): the barrier is where it is for its own kind,
 * and the accesses of the other kind are ordered as if it were not there,
 * neither kept nor too weak; missing-barrier judges them. A wmb with no
 * store on one side is a barrier of the wrong kind, which weak-barrier
 * reports. */
static bool claims_of_other_kind(const propagation *p, const bp_ordering *ordering) {
  unsigned strength = weak_barrier_strength(p->engine, ordering->barrier);
  return strength && !of_kind(ordering, strength) && p->serving[ordering->barrier - p->first_event];
}

/* A read-modify-write next to an rmb or a wmb: the barrier orders the half
 * of its kind (`fas(&head, NULL); rmb();` orders the load of the old head),
 * and the other half is no claim of an order, neither kept nor too weak. */
static bool other_half_of_rmw(const propagation *p, uint32_t id, unsigned strength) {
  const bp_event *event = bp_event_get(p->engine, id);
  unsigned order = BP_STRENGTH_ORDER(strength);
  if (order == BP_STRENGTH_FULL || !bp_read_modify_write(p->engine, id))
    return false;
  return event->kind == BP_ACCESS_STORE ? order == BP_STRENGTH_LOADS : order == BP_STRENGTH_STORES;
}

/* A relaxed load of X read again with an acquire load or a read-modify-write
 * of X (`quick = load(&head); ...; head_now = load_acquire(&head); next =
 * head_now->next`): the later read sees the same value or a newer one
 * (read-read coherence), and it is ordered before what follows, so what the
 * first load would order past it is the later read's to claim. Only for one
 * location: one node's `next` read again is another node's. */
static bool reads_source_again(const propagation *p, uint32_t id, const bp_event *event,
                               const bp_event *source) {
  return event->object == source->object && id != p->source && source->kind == BP_ACCESS_LOAD &&
         event->kind == BP_ACCESS_LOAD && bp_one_location(p->engine, event->object) &&
         (bp_read_modify_write(p->engine, id) ||
          bp_own_barrier(p->engine, id, BP_STRENGTH_ACQUIRE) != BP_NO_EVENT);
}

/* The release store `event` is a publication (rcu_assign_pointer()) whose
 * value points to memory other than the source's: the publication orders
 * the source too, but claims only the initialisation of what it publishes
 * (the source's lvalue starting from the pointer it stores, or memory not
 * yet published), as the consume on the other side orders only what is
 * read through the pointer. Unknown where either comes from: claimed. */
static bool publishes_other_memory(const propagation *p, uint32_t barrier, const bp_event *event,
                                   const bp_event *source) {
  const bp_primitive *primitive = bp_primitive_get(bp_event_get(p->engine, barrier)->primitive);
  if (!primitive || primitive->order != BP_ORDER_PUBLISH || event->value_root == BP_NO_ROOT ||
      source->root == BP_NO_ROOT)
    return false;
  return !source->unpublished && source->root != event->value_root;
}

static void reach_block(propagation *p, uint32_t block, path_state state) {
  if (p->block_in[block].strength == UNREACHED)
    p->touched_blocks[p->touched_block_count++] = block;
  if (meet(&p->block_in[block], state) && !p->queued[block]) {
    p->queued[block] = true;
    p->worklist[p->worklist_count++] = block;
  }
}

static void walk_block(propagation *p, uint32_t block_index, size_t start, path_state state) {
  const bp_block *block = bp_vec_at(&p->function->blocks, block_index);
  const bp_event *source = bp_event_get(p->engine, p->source);
  for (size_t i = start; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(p->engine, id);
    if (event->type == BP_EVENT_ACCESS) {
      bool own = bp_same_location(event->location, source->location);
      if (state.phase == IN_BARRIER_GROUP && state.release_only &&
          !bp_same_location(event->location, state.group))
        return; /* a release orders its own store, nothing after it */
      path_state reached = state;
      bool claimed = !(state.phase != BEFORE_BARRIER && other_half_of_rmw(p, id, state.strength)) &&
                     !p->guess[id - p->first_event] && !event->value_unused;
      if (state.phase == IN_BARRIER_GROUP && state.consume_only &&
          !bp_event_guarded_by(p->engine, id, source->object) &&
          !bp_event_addressed_through(p->engine, id, source->object))
        reached.strength = 0; /* not reached through the consumed pointer */
      if (state.read_again)
        claimed = false;
      if (state.phase == IN_BARRIER_GROUP && state.release_only &&
          publishes_other_memory(p, state.barrier, event, source))
        claimed = false;
      /* past a loop the path went round, the last iteration's access comes
       * before what follows, as in straight-line code, ordered by what a
       * barrier written after the loop orders (liburcu-qsbr's
       * wait_for_readers() marks each reader in its walk, then
       * cmm_smp_mb(), then reads each reader's counter); a plain _Atomic
       * access's default order after a loop is no one's claim */
      if (state.around_loop && state.phase != BEFORE_BARRIER && state.by_default)
        claimed = false;
      if (claimed && p->reached[id - p->first_event].strength == UNREACHED)
        p->touched_events[p->touched_event_count++] = id - p->first_event;
      if (claimed)
        meet(&p->reached[id - p->first_event], reached);
      if (depends_on_source(p, id, event))
        p->dependent[id - p->first_event] = true;
      if (state.phase != BEFORE_BARRIER && state.barrier != BP_NO_EVENT &&
          event->kind == source->kind &&
          weak_barrier_strength(p->engine, state.barrier) ==
              (event->kind == BP_ACCESS_LOAD ? BP_STRENGTH_LOADS : BP_STRENGTH_STORES))
        p->serving[state.barrier - p->first_event] = true;
      state.left_source = state.left_source || !own;
      state.read_again = state.read_again || reads_source_again(p, id, event, source);
      if (state.phase == IN_BARRIER_GROUP && !state.release_only)
        state.phase = IN_WINDOW;
    } else if (event->strength) {
      if (state.phase == IN_WINDOW)
        return; /* the next ordering point: the window ends here */
      if (state.phase == BEFORE_BARRIER && other_half_of_rmw(p, p->source, event->strength))
        return;
      cross_barrier(p, &state, id, event);
    } else if (event->type == BP_EVENT_CALL && p->ordering_calls && p->ordering_calls[id]) {
      /* accesses and ordering points not seen here, of strengths not known:
       * the window that holds the source ends in the callee, and nothing
       * past the call is claimed, ordered or not */
      return;
    } else if (event->type == BP_EVENT_BARRIER && !event->implicit && !state.strength) {
      /* a compiler barrier orders nothing between CPUs, but it is where the
       * programmer meant an order: a too-weak barrier, not a missing one */
      state.barrier = id;
    } else if (event->type == BP_EVENT_UNLOCK) {
      state.unlocked = kernel_lock(event);
      state.passed_unlock = state.passed_unlock || state.unlocked;
      state.past_unlock = state.past_unlock || state.phase == BEFORE_BARRIER;
    } else if (event->type == BP_EVENT_LOCK && !asserted_lock(event) &&
               (state.unlocked || (event->after_unlock_lock && state.passed_unlock))) {
      /* the kernel's unlock followed by a lock orders as a full barrier
       * (LKMM; the article: "sometimes", not for every user-level lock),
       * with accesses between them where smp_mb__after_unlock_lock()
       * follows the lock; the locks are there to exclude, so the order is
       * no claim */
      if (state.phase == IN_WINDOW)
        return;
      /* LKMM: without smp_mb__after_unlock_lock() the pair orders all but
       * a store before it against a load after it (po-unlock-lock-po is a
       * cumul-fence, not a strong fence: LB+unlocklockonceonce+
       * poacquireonce is Never, SB through an unlock and a lock is not) */
      state.unlock_lock =
          !event->after_unlock_lock && (state.phase == BEFORE_BARRIER || state.unlock_lock);
      state.by_locks = state.phase == BEFORE_BARRIER || state.by_locks;
      state.strength |= BP_STRENGTH_FULL;
      state.barrier = id;
      state.phase = IN_BARRIER_GROUP;
      state.release_only = state.consume_only = state.by_default = false;
    }
    if (event->type == BP_EVENT_ACCESS)
      state.unlocked = false;
  }
  for (size_t s = 0; s < block->successors.count; s++) {
    uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
    if (!(successor & BP_LOOP_EDGE)) {
      reach_block(p, successor, state);
      continue;
    }
    /* Round the loop: a later iteration's accesses (a retry loop's re-read
     * of what it checked, a worker's next round) are no order the code
     * relies on, and are not walked; the path goes on where the loop's head
     * leaves it, after the last iteration, where only what a barrier
     * written after the loop orders counts. */
    uint32_t head = successor & ~BP_LOOP_EDGE, loop = p->loops.of_header[head];
    const bp_block *head_block = bp_vec_at(&p->function->blocks, head);
    path_state after = state;
    after.around_loop = true;
    for (size_t e = 0; e < head_block->successors.count; e++) {
      uint32_t exit = *(uint32_t *)bp_vec_at(&head_block->successors, e);
      if (!(exit & BP_LOOP_EDGE) && !in_loop(&p->loops, loop, exit))
        reach_block(p, exit, after);
    }
  }
}

static void find_loops(const bp_function *function, loop_bodies *loops) {
  size_t block_count = function->blocks.count;
  *loops = (loop_bodies){.words = (block_count + 63) / 64};
  loops->of_header = malloc((block_count + 1) * sizeof *loops->of_header);
  if (!loops->of_header)
    abort();
  for (size_t b = 0; b < block_count; b++)
    loops->of_header[b] = NO_LOOP;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
      if ((successor & BP_LOOP_EDGE) && loops->of_header[successor & ~BP_LOOP_EDGE] == NO_LOOP)
        loops->of_header[successor & ~BP_LOOP_EDGE] = (uint32_t)loops->count++;
    }
  }
  loops->bodies = calloc(loops->count * loops->words + 1, sizeof *loops->bodies);
  if (!loops->bodies)
    abort();
  if (!loops->count)
    return;
  /* predecessors, for the walk back from each edge's source */
  bp_predecessors predecessors;
  bp_predecessors_init(function, &predecessors);
  uint32_t *stack = malloc((block_count + 1) * sizeof *stack);
  if (!stack)
    abort();
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
      if (!(successor & BP_LOOP_EDGE))
        continue;
      uint32_t head = successor & ~BP_LOOP_EDGE, loop = loops->of_header[head];
      uint64_t *body = loops->bodies + loop * loops->words;
      size_t depth = 0;
      body[head / 64] |= (uint64_t)1 << (head % 64);
      if (!(body[b / 64] >> (b % 64) & 1)) {
        body[b / 64] |= (uint64_t)1 << (b % 64);
        stack[depth++] = (uint32_t)b;
      }
      while (depth) {
        uint32_t block_index = stack[--depth];
        for (uint32_t e = predecessors.first[block_index]; e < predecessors.first[block_index + 1];
             e++) {
          uint32_t predecessor = predecessors.blocks[e];
          if (!(body[predecessor / 64] >> (predecessor % 64) & 1)) {
            body[predecessor / 64] |= (uint64_t)1 << (predecessor % 64);
            stack[depth++] = predecessor;
          }
        }
      }
    }
  }
  bp_predecessors_free(&predecessors);
  free(stack);
}

static int compare_orderings(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->first_kind, b->first_kind);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->second_kind, b->second_kind);
  BP_COMPARE(a->strength, b->strength);
  /* of two unordered paths, the one with a compiler barrier where the
   * programmer meant an order is the one to report */
  BP_COMPARE(a->barrier == BP_NO_EVENT, b->barrier == BP_NO_EVENT);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

/* One ordering per (object, kind, object, kind) of a function: the weakest,
 * kept as they are found, so that a large function's many pairs are never
 * all stored and sorted. */
typedef struct {
  bp_vec orderings; /* bp_ordering */
  uint32_t *slots;  /* open addressing: index + 1, 0 = empty */
  size_t slot_count;
} weakest_table;

static uint64_t pair_hash(const bp_ordering *o) {
  uint64_t hash = ((uint64_t)o->first_object << 33) ^ ((uint64_t)o->second_object << 1) ^
                  ((uint64_t)o->first_kind << 63) ^ (uint64_t)o->second_kind;
  hash ^= hash >> 29;
  hash *= 0x9e3779b97f4a7c15ull;
  return hash ^ (hash >> 32);
}

static bool same_pair(const bp_ordering *a, const bp_ordering *b) {
  return a->first_object == b->first_object && a->first_kind == b->first_kind &&
         a->second_object == b->second_object && a->second_kind == b->second_kind;
}

static void grow_table(weakest_table *table) {
  size_t count = table->slot_count ? 2 * table->slot_count : 64;
  uint32_t *slots = calloc(count, sizeof *slots);
  if (!slots)
    abort();
  for (size_t i = 0; i < table->orderings.count; i++) {
    size_t slot = pair_hash(bp_vec_at(&table->orderings, i)) & (count - 1);
    while (slots[slot])
      slot = (slot + 1) & (count - 1);
    slots[slot] = (uint32_t)i + 1;
  }
  free(table->slots);
  table->slots = slots;
  table->slot_count = count;
}

static void keep_weakest(weakest_table *table, const bp_ordering *ordering) {
  if (2 * (table->orderings.count + 1) > table->slot_count)
    grow_table(table);
  size_t slot = pair_hash(ordering) & (table->slot_count - 1);
  for (; table->slots[slot]; slot = (slot + 1) & (table->slot_count - 1)) {
    bp_ordering *kept = bp_vec_at(&table->orderings, table->slots[slot] - 1);
    if (same_pair(kept, ordering)) {
      /* an ordering whose instances go together is a claim; the weakest of
       * those is the one to judge */
      if (ordering->instances_go_together != kept->instances_go_together
              ? ordering->instances_go_together
              : compare_orderings(ordering, kept) < 0)
        *kept = *ordering;
      return;
    }
  }
  *(bp_ordering *)bp_vec_push(&table->orderings) = *ordering;
  table->slots[slot] = (uint32_t)table->orderings.count;
}

/* A release store, then an acquire load: the code orders both, but
 * neither orders the store before the load (store buffering needs a full
 * barrier). The acquire stands where the order was meant, as a compiler
 * barrier does: a barrier too weak, not a missing one. */
static void meant_store_load_order(const bp_engine *engine, bp_ordering *ordering) {
  if (ordering->strength || ordering->barrier != BP_NO_EVENT ||
      ordering->first_kind != BP_ACCESS_STORE || ordering->second_kind != BP_ACCESS_LOAD ||
      bp_read_modify_write(engine, ordering->first) ||
      bp_read_modify_write(engine, ordering->second) ||
      bp_own_barrier(engine, ordering->first, BP_STRENGTH_RELEASE) == BP_NO_EVENT)
    return;
  ordering->barrier = bp_own_barrier(engine, ordering->second, BP_STRENGTH_ACQUIRE);
}

/* An access to memory not yet published, unless it is a load and the
 * ordering's other object is the one its pointer was read from: a list
 * taken whole from a head (`first = xchg(&head, NULL); first->next`) is the
 * taker's, but what its nodes held is the message that head handed over. */
static unsigned char access_flags(const bp_engine *engine, uint32_t access, uint32_t other_object) {
  const bp_event *event = bp_event_get(engine, access);
  bool unpublished =
      event->unpublished &&
      !(event->kind == BP_ACCESS_LOAD && bp_event_addressed_through(engine, access, other_object));
  return (unsigned char)((unpublished ? BP_ACCESS_UNPUBLISHED : 0) |
                         (event->thread_own ? BP_ACCESS_THREAD_OWN : 0) |
                         (event->bits || event->stored_increment ? BP_ACCESS_BITS : 0));
}

/* Whether `side`'s two accesses reach instances that go together, so that
 * a partner reaching the one may reach the other: either object is a
 * variable's, or both start from one variable (`bt->depth`, then
 * `bt->wait.head.next` in a helper given `&bt->wait`), or the second is
 * found through the first (`p = READ_ONCE(q->head); p->data`) or through
 * a field of the first's structure (`buffer[ring->tail & ring->mask]`
 * before `ring->head`), or the second stores the pointer the first went
 * through (`obj->data = 1; rcu_assign_pointer(q->head, obj)`), or one's
 * value is compared with the pointer the other goes through (`if
 * (load(&slot->value) == value) dec(&value->users)`; a compare-and-swap
 * expecting it). Two fields named only by their types (every
 * `list_head.next`, every `atomic_t.counter`) reached from unrelated
 * pointers claim nothing about one instance of each. */
static bool addressed_through_type(const bp_engine *engine, uint32_t access, uint32_t object) {
  const bp_event *event = bp_event_get(engine, access);
  for (size_t s = 0; s < BP_GUARDS_MAX && event->address_sources[s] != BP_NO_OBJECT; s++)
    if (bp_same_structure(engine, event->address_sources[s], object))
      return true;
  return false;
}

static bool instances_go_together(const bp_engine *engine, const bp_ordering *side) {
  if (bp_variable_object(engine, side->first_object) ||
      bp_variable_object(engine, side->second_object))
    return true;
  const bp_event *first = bp_event_get(engine, side->first);
  const bp_event *second = bp_event_get(engine, side->second);
  if (first->root != BP_NO_ROOT &&
      (first->root == second->root || first->root == second->value_root))
    return true;
  if (second->root != BP_NO_ROOT && second->root == first->value_root)
    return true;
  return addressed_through_type(engine, side->second, side->first_object) ||
         addressed_through_type(engine, side->first, side->second_object);
}

static void add_reached_orderings(const propagation *p, uint32_t function_index, uint32_t source,
                                  weakest_table *table) {
  const bp_event *from = bp_event_get(p->engine, source);
  for (size_t k = 0; k < p->touched_event_count; k++) {
    uint32_t local = p->touched_events[k];
    uint32_t id = p->first_event + (uint32_t)local;
    const bp_event *to = bp_event_get(p->engine, id);
    if (to->object == from->object || crosses_unclaimed_contract(p, from, to))
      continue;
    bp_ordering ordering = {.function = function_index,
                            .first = source,
                            .second = id,
                            .first_object = from->object,
                            .second_object = to->object,
                            .first_kind = from->kind,
                            .second_kind = to->kind,
                            .strength = p->reached[local].strength,
                            .barrier = p->reached[local].barrier,
                            .first_flags = access_flags(p->engine, source, to->object),
                            .second_flags = access_flags(p->engine, id, from->object),
                            .by_default =
                                p->reached[local].strength && p->reached[local].by_default,
                            .by_locks = p->reached[local].strength && p->reached[local].by_locks};
    /* a kernel unlock and lock order no store before a load */
    if (ordering.by_locks && p->reached[local].unlock_lock && from->kind == BP_ACCESS_STORE &&
        to->kind == BP_ACCESS_LOAD) {
      ordering.strength = BP_STRENGTH_NONE;
      ordering.barrier = BP_NO_EVENT;
      ordering.by_locks = false;
    }
    unsigned needed = from->kind != to->kind         ? BP_STRENGTH_FULL
                      : from->kind == BP_ACCESS_LOAD ? BP_STRENGTH_LOADS
                                                     : BP_STRENGTH_STORES;
    if (p->dependent[local] && (ordering.strength & needed) != needed) {
      /* the dependency orders it; messages name the load it depends on */
      ordering.strength = BP_STRENGTH_FULL;
      ordering.barrier = source;
      ordering.by_default = ordering.by_locks = false;
    }
    meant_store_load_order(p->engine, &ordering);
    ordering.instances_go_together = instances_go_together(p->engine, &ordering);
    keep_weakest(table, &ordering);
  }
}

/* A relaxed load of X that the code checks with a read-modify-write of X
 * before it reads anything else: the guess of a compare-and-swap loop
 * (`old = load(&head); do { node->next = old; } while (!cas(&head, &old,
 * node))`), whose value counts only once the read-modify-write has read it
 * again. What the load is ordered with is the read-modify-write's to claim.
 * Every path from the load must reach such a read-modify-write, through
 * stores only; a path that leaves the function, or loads another object
 * first, makes it a load like any other. */
/* Whether the events of `block_index` from `start` on reach an RMW of
 * `object` (1), a load of another object first (-1), or neither (0). */
static int scan_for_check(const propagation *p, uint32_t block_index, size_t start,
                          uint32_t object) {
  const bp_block *block = bp_vec_at(&p->function->blocks, block_index);
  for (size_t i = start; i < block->events.count; i++) {
    uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
    const bp_event *event = bp_event_get(p->engine, id);
    if (event->type != BP_EVENT_ACCESS)
      continue;
    if (event->object == object && bp_read_modify_write(p->engine, id))
      return 1;
    if (event->kind == BP_ACCESS_LOAD)
      return -1;
  }
  return 0;
}

/* An explicit stack, not recursion: a generated function has thousands of
 * blocks. `visited` and `stack` hold a slot per block. */
static bool checked_by_rmw(const propagation *p, uint32_t block_index, size_t start,
                           uint32_t object, bool *visited, uint32_t *stack) {
  int found = scan_for_check(p, block_index, start, object);
  if (found)
    return found > 0;
  size_t depth = 0;
  visited[block_index] = true;
  stack[depth++] = block_index;
  while (depth) {
    const bp_block *block = bp_vec_at(&p->function->blocks, stack[--depth]);
    bool any = false;
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
      if (successor & BP_LOOP_EDGE)
        continue; /* around the loop again: the path goes on from the head */
      any = true;
      if (visited[successor])
        continue;
      visited[successor] = true;
      found = scan_for_check(p, successor, 0, object);
      if (found < 0)
        return false;
      if (found == 0)
        stack[depth++] = successor;
    }
    if (!any)
      return false; /* the function ends before any check */
  }
  return true;
}

static void find_guesses(propagation *p) {
  size_t block_count = p->function->blocks.count;
  bool *visited = NULL;
  uint32_t *stack = NULL;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&p->function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      const bp_event *event = bp_event_get(p->engine, id);
      if (event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_LOAD || !event->marked ||
          bp_read_modify_write(p->engine, id) ||
          bp_own_barrier(p->engine, id, BP_STRENGTH_ACQUIRE) != BP_NO_EVENT)
        continue;
      if (!visited) {
        visited = malloc(block_count * sizeof *visited);
        stack = malloc(block_count * sizeof *stack);
        if (!visited || !stack)
          abort();
      }
      memset(visited, 0, block_count * sizeof *visited);
      p->guess[id - p->first_event] =
          checked_by_rmw(p, (uint32_t)b, i + 1, event->object, visited, stack);
    }
  }
  free(visited);
  free(stack);
}

void bp_collect_orderings(const bp_engine *engine, const bool *ordering_calls,
                          uint32_t function_index, bp_vec *orderings) {
  const bp_function *function = bp_vec_at(&engine->functions, function_index);
  size_t block_count = function->blocks.count;
  uint32_t first_event = UINT32_MAX, last_event = 0;
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      first_event = id < first_event ? id : first_event;
      last_event = id > last_event ? id : last_event;
    }
  }
  if (first_event == UINT32_MAX)
    return;
  size_t event_count = last_event - first_event + 1;

  propagation p = {.engine = engine,
                   .function = function,
                   .ordering_calls = ordering_calls,
                   .first_event = first_event};
  p.block_in = malloc(block_count * sizeof *p.block_in);
  p.reached = malloc(event_count * sizeof *p.reached);
  p.worklist = malloc(block_count * sizeof *p.worklist);
  p.queued = malloc(block_count * sizeof *p.queued);
  p.dependent = malloc(event_count * sizeof *p.dependent);
  p.serving = calloc(event_count, sizeof *p.serving);
  p.guess = calloc(event_count, sizeof *p.guess);
  p.touched_events = malloc(event_count * sizeof *p.touched_events);
  p.touched_blocks = malloc(block_count * sizeof *p.touched_blocks);
  if (!p.block_in || !p.reached || !p.worklist || !p.queued || !p.dependent || !p.touched_events ||
      !p.touched_blocks || !p.serving || !p.guess)
    abort();
  find_guesses(&p);
  find_loops(function, &p.loops);
  const path_state unreached = {.strength = UNREACHED, .barrier = BP_NO_EVENT};
  for (size_t k = 0; k < block_count; k++) {
    p.block_in[k] = unreached;
    p.queued[k] = false;
  }
  for (size_t k = 0; k < event_count; k++) {
    p.reached[k] = unreached;
    p.dependent[k] = false;
  }

  weakest_table table = {.slots = NULL};
  bp_vec_init(&table.orderings, sizeof(bp_ordering));
  for (size_t b = 0; b < block_count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t source = *(uint32_t *)bp_vec_at(&block->events, i);
      const bp_event *event = bp_event_get(engine, source);
      /* a guess, or a read whose value is dropped, claims no order */
      if (event->type != BP_EVENT_ACCESS || p.guess[source - first_event] || event->value_unused)
        continue;
      p.source = source;
      p.worklist_count = 0;
      walk_block(&p, (uint32_t)b, i + 1,
                 (path_state){.strength = 0, .barrier = BP_NO_EVENT, .phase = BEFORE_BARRIER});
      while (p.worklist_count) {
        uint32_t next = p.worklist[--p.worklist_count];
        p.queued[next] = false;
        walk_block(&p, next, 0, p.block_in[next]);
      }
      add_reached_orderings(&p, function_index, source, &table);
      for (size_t k = 0; k < p.touched_event_count; k++) {
        p.reached[p.touched_events[k]] = unreached;
        p.dependent[p.touched_events[k]] = false;
      }
      for (size_t k = 0; k < p.touched_block_count; k++)
        p.block_in[p.touched_blocks[k]] = unreached;
      p.touched_event_count = p.touched_block_count = 0;
    }
  }
  for (size_t i = 0; i < table.orderings.count; i++) {
    bp_ordering ordering = *(const bp_ordering *)bp_vec_at(&table.orderings, i);
    if (claims_of_other_kind(&p, &ordering)) {
      ordering.strength = 0; /* as if the barrier were not there */
      ordering.barrier = BP_NO_EVENT;
    }
    *(bp_ordering *)bp_vec_push(orderings) = ordering;
  }
  bp_vec_free(&table.orderings);
  free(table.slots);
  free(p.block_in);
  free(p.reached);
  free(p.worklist);
  free(p.queued);
  free(p.dependent);
  free(p.serving);
  free(p.guess);
  free(p.touched_events);
  free(p.touched_blocks);
  free(p.loops.of_header);
  free(p.loops.bodies);
}

/* ---- The program's orderings, by their objects ---- */

static int compare_by_objects(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

/* The fence of `ordering` stands right between its two accesses, with no
 * other object's access beside them (`fetch_add(&a); fence; load(&b)`). */
static bool around_its_fence(const bp_engine *engine, const bp_ordering *ordering) {
  if (!(ordering->first < ordering->barrier && ordering->barrier < ordering->second))
    return false;
  for (uint32_t id = ordering->first + 1; id < ordering->second; id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type == BP_EVENT_ACCESS && event->object != ordering->first_object &&
        event->object != ordering->second_object)
      return false;
  }
  return true;
}

/* A reference count orders the uses of the memory it counts before a put
 * (an access, then the count) against what the last put does once the
 * count lets it through (the count, then an access its value decides):
 * jansson's `json_decref()` before `json_delete()`. Its order with an
 * access the count's value does not decide is no claim: the count's
 * barrier serves the memory's lifetime, not a message (`json_decref(old);
 * array->entries--`). */
static bool unrelated_to_its_count(const bp_analysis *analysis, const bp_ordering *ordering) {
  bool first = bp_reference_count(analysis, ordering->first_object),
       second = bp_reference_count(analysis, ordering->second_object);
  if (first && second)
    return true;
  return first && !bp_event_guarded_by(analysis->engine, ordering->second, ordering->first_object);
}

void bp_collect_program_orderings(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    if (bp_may_run_concurrently(analysis, f))
      bp_collect_orderings(engine, analysis->ordering_calls, f, &analysis->orderings);
  }
  /* a counter's order with anything is no claim (counters.c), unless a
   * fence written in the code stands right between two counts: counts
   * with a fence between them are a protocol (a Dekker of two counts), not
   * statistics. A count that only shares a fence's window with other
   * accesses (CK's per-record statistics after a stack's fence, several
   * calls apart) stays a count. */
  for (size_t i = 0; i < analysis->orderings.count; i++) {
    const bp_ordering *ordering = bp_vec_at(&analysis->orderings, i);
    const bp_event *barrier =
        ordering->barrier == BP_NO_EVENT ? NULL : bp_event_get(engine, ordering->barrier);
    if (barrier && barrier->type == BP_EVENT_BARRIER && !barrier->implicit &&
        bp_counter(analysis, ordering->first_object) &&
        bp_counter(analysis, ordering->second_object) && around_its_fence(engine, ordering)) {
      bp_uncount(analysis, ordering->first_object);
      bp_uncount(analysis, ordering->second_object);
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < analysis->orderings.count; i++) {
    const bp_ordering *ordering = bp_vec_at(&analysis->orderings, i);
    if (bp_counter(analysis, ordering->first_object) ||
        bp_counter(analysis, ordering->second_object) || unrelated_to_its_count(analysis, ordering))
      continue;
    *(bp_ordering *)bp_vec_at(&analysis->orderings, kept++) = *ordering;
  }
  analysis->orderings.count = kept;
  if (analysis->orderings.count)
    qsort(analysis->orderings.items, analysis->orderings.count, sizeof(bp_ordering),
          compare_by_objects);
}

size_t bp_orderings_between(const bp_analysis *analysis, uint32_t first_object,
                            uint32_t second_object, size_t *begin) {
  const bp_vec *orderings = &analysis->orderings;
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
  *begin = low;
  size_t end = low;
  while (end < orderings->count) {
    const bp_ordering *o = bp_vec_at(orderings, end);
    if (o->first_object != first_object || o->second_object != second_object)
      break;
    end++;
  }
  return end;
}
