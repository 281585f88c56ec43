/* broken-contract: a function a library's contract (BP_CONTRACT) says
 * orders its caller's accesses against its own, with no barrier strong
 * enough on any path between its entry and its first access of the
 * contract's kind (ENTRY), or between its last one and its return (EXIT).
 * A function that is a barrier itself (BARRIER) keeps its contract when
 * some path from its entry to its return has one that strong.
 * The partner of such a barrier is the library's user, whom the analysis
 * never sees: a read lock's barrier pairs with the updater's grace period
 * through the reader's critical section. "Some path" and not "every path":
 * a nested read lock that skips the barrier relies on the outer one. */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const bp_contract *contract;
  bool loads, stores; /* the function's accesses the contract orders */
  unsigned strength;  /* what a barrier must order (BP_STRENGTH_ORDER) */
  /* the implicit barrier of an acquire (at ENTRY), a release (at EXIT) or
   * either (BARRIER) orders its own access only, on the wrong side */
  unsigned wrong_side;
} contract_need;

static contract_need need_of(const bp_contract *contract) {
  bool barrier = contract->side == BP_CONTRACT_BARRIER;
  /* a barrier orders its caller's accesses, none of its own */
  contract_need need = {contract, !barrier, !barrier, BP_STRENGTH_FULL, 0};
  switch (contract->order) {
  case BP_ORDER_WMB:
    need.loads = false;
    need.strength = BP_STRENGTH_STORES;
    break;
  case BP_ORDER_RMB:
    need.stores = false;
    need.strength = BP_STRENGTH_LOADS;
    break;
  case BP_ORDER_RELEASE:
    need.loads = false;
    break;
  case BP_ORDER_ACQUIRE:
    need.stores = false;
    break;
  default:
    break;
  }
  need.wrong_side = BP_STRENGTH_CONSUME;
  if (contract->side != BP_CONTRACT_EXIT)
    need.wrong_side |= BP_STRENGTH_ACQUIRE;
  if (contract->side != BP_CONTRACT_ENTRY)
    need.wrong_side |= BP_STRENGTH_RELEASE;
  return need;
}

/* An access the contract orders: every store but into memory not yet
 * published, which reaches nobody, and the loads the code marks. A plain
 * load (a reader's nesting count, a flag that picks the membarrier scheme)
 * is no communication the code declared, and neither is a load of the
 * thread's own instance or the read of an RMW whose value the code drops. */
static bool covered(const contract_need *need, const bp_event *event) {
  if (event->type != BP_EVENT_ACCESS || event->unpublished)
    return false;
  if (event->kind == BP_ACCESS_STORE)
    return need->stores;
  return need->loads && event->marked && !event->thread_own && !event->value_unused;
}

/* A C11 release fence orders every earlier access before later stores,
 * an acquire fence earlier loads before every later access: elsewhere they
 * count as a write and a read barrier (what they order between two
 * accesses of one kind), here as what a RELEASE or ACQUIRE contract asks. */
static bool c11_fence_keeps(const contract_need *need, const bp_event *event) {
  const bp_primitive *primitive = bp_primitive_get(event->primitive);
  if (!primitive || primitive->op != BP_OP_FENCE || event->implicit)
    return false;
  bool release = primitive->order == BP_ORDER_RELEASE || primitive->order == BP_ORDER_ACQ_REL ||
                 (primitive->order == BP_ORDER_FROM_ARG && (event->strength & BP_STRENGTH_STORES));
  bool acquire = primitive->order == BP_ORDER_ACQUIRE || primitive->order == BP_ORDER_ACQ_REL ||
                 (primitive->order == BP_ORDER_FROM_ARG && (event->strength & BP_STRENGTH_LOADS));
  return need->contract->order == BP_ORDER_RELEASE   ? release
         : need->contract->order == BP_ORDER_ACQUIRE ? acquire
                                                     : false;
}

static bool keeps(const bp_analysis *analysis, const contract_need *need, uint32_t id) {
  const bp_event *event = bp_event_get(analysis->engine, id);
  if (event->type == BP_EVENT_CALL)
    return analysis->ordering_calls[id]; /* a callee that orders, how strongly is not known */
  if (event->type != BP_EVENT_BARRIER || (event->strength & need->wrong_side))
    return false;
  return (BP_STRENGTH_ORDER(event->strength) & need->strength) == need->strength ||
         c11_fence_keeps(need, event);
}

static bool written_before(const bp_engine *engine, uint32_t a, uint32_t b) {
  return bp_compare_locations(engine, a, b) < 0;
}

/* The function's first event as written, BP_NO_EVENT when it has none. */
static uint32_t first_written(const bp_engine *engine, const bp_function *function) {
  uint32_t first = BP_NO_EVENT;
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      if (first == BP_NO_EVENT || written_before(engine, id, first))
        first = id;
    }
  }
  return first;
}

/* The better place of two covered accesses for the finding: one a path
 * meets after a barrier that is too weak (where the fix goes: a read
 * lock's outermost level, not its nested one), then the first written
 * (ENTRY) or the last (EXIT). */
typedef struct {
  uint32_t access;
  bool after_weak;
} met_access;

static bool better(const bp_engine *engine, bool forward, met_access a, met_access b) {
  if (b.access == BP_NO_EVENT)
    return true;
  if (a.after_weak != b.after_weak)
    return a.after_weak;
  return forward ? written_before(engine, a.access, b.access)
                 : written_before(engine, b.access, a.access);
}

/* Walks the function from its entries forward (ENTRY, BARRIER) or from its
 * returns backward (EXIT), each path up to its first covered access.
 * Returns BP_NO_EVENT when a path meets a barrier that keeps the contract
 * first or no path meets a covered access; otherwise the best place of the
 * covered accesses the paths met (better()). `too_weak` is the first
 * written barrier met that orders too little (a compiler barrier, a
 * membarrier scheme's reader side). A block is walked once with and once
 * without a too-weak barrier behind it. */
static uint32_t unordered_access(const bp_analysis *analysis, const bp_function *function,
                                 const contract_need *need, uint32_t *too_weak) {
  const bp_engine *engine = analysis->engine;
  size_t count = function->blocks.count;
  bool forward = need->contract->side != BP_CONTRACT_EXIT;
  bp_vec *edges = malloc((count + 1) * sizeof *edges);
  bool *seen = calloc(2 * count + 1, sizeof *seen); /* [2 * block + after_weak] */
  bool *ends = calloc(count + 1, sizeof *ends);     /* entries going forward, returns going back */
  uint32_t *stack = malloc((2 * count + 1) * sizeof *stack); /* 2 * block + after_weak */
  if (!edges || !seen || !ends || !stack)
    abort();
  for (size_t b = 0; b < count; b++) {
    bp_vec_init(&edges[b], sizeof(uint32_t));
    ends[b] = true;
  }
  for (size_t b = 0; b < count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
      uint32_t from = forward ? (uint32_t)b : successor, to = forward ? successor : (uint32_t)b;
      *(uint32_t *)bp_vec_push(&edges[from]) = to;
      ends[to] = false; /* reached from another block: no entry (no return going back) */
    }
  }
  size_t depth = 0;
  for (size_t b = 0; b < count; b++) {
    if (ends[b]) {
      seen[2 * b] = true;
      stack[depth++] = (uint32_t)(2 * b);
    }
  }
  met_access best = {BP_NO_EVENT, false};
  bool kept = false;
  while (depth && !kept) {
    uint32_t state = stack[--depth], from = state / 2;
    bool after_weak = state % 2, stopped = false;
    const bp_block *block = bp_vec_at(&function->blocks, from);
    for (size_t k = 0; k < block->events.count && !stopped; k++) {
      size_t i = forward ? k : block->events.count - 1 - k;
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      const bp_event *event = bp_event_get(engine, id);
      if (keeps(analysis, need, id)) {
        kept = stopped = true;
      } else if (event->type == BP_EVENT_BARRIER && !event->implicit) {
        if (*too_weak == BP_NO_EVENT || written_before(engine, id, *too_weak))
          *too_weak = id;
        after_weak = true;
      } else if (covered(need, event)) {
        met_access met = {id, after_weak};
        if (better(engine, forward, met, best))
          best = met;
        stopped = true;
      }
    }
    for (size_t e = 0; !stopped && e < edges[from].count; e++) {
      uint32_t next = 2 * *(uint32_t *)bp_vec_at(&edges[from], e) + after_weak;
      if (!seen[next]) {
        seen[next] = true;
        stack[depth++] = next;
      }
    }
  }
  for (size_t b = 0; b < count; b++)
    bp_vec_free(&edges[b]);
  free(edges);
  free(seen);
  free(ends);
  free(stack);
  if (!kept && need->contract->side == BP_CONTRACT_BARRIER)
    return first_written(engine, function); /* no path has it; no access to point at */
  return kept ? BP_NO_EVENT : best.access;
}

void bp_check_broken_contracts(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  size_t contracts = bp_contract_count();
  if (!contracts || analysis->options->disabled[BP_RULE_BROKEN_CONTRACT])
    return;
  for (size_t c = 0; c < contracts; c++) {
    const bp_contract *contract = bp_contract_get(c);
    uint32_t name = bp_interner_find(&engine->names, contract->function);
    if (name == UINT32_MAX)
      continue; /* no function of the program has that name */
    contract_need need = need_of(contract);
    for (uint32_t f = 0; f < engine->functions.count; f++) {
      const bp_function *function = bp_vec_at(&engine->functions, f);
      if (function->name != name)
        continue;
      uint32_t too_weak = BP_NO_EVENT;
      uint32_t access = unordered_access(analysis, function, &need, &too_weak);
      if (access == BP_NO_EVENT)
        continue;
      bp_finding *finding = bp_add_candidate(analysis, BP_RULE_BROKEN_CONTRACT);
      if (!finding)
        return;
      finding->at = access;
      finding->scenario = -1;
      finding->contract = (uint32_t)c;
      finding->side = (bp_side){f, access, access, too_weak, 0};
      finding->partner = (bp_side){BP_NO_FUNCTION, BP_NO_EVENT, BP_NO_EVENT, BP_NO_EVENT, 0};
      finding->need = need.strength;
      finding->family = bp_event_family(engine, access);
    }
  }
}
