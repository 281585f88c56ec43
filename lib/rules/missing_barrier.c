/* missing-barrier and weak-barrier of a pair: function F orders X before Y,
 * function G orders Y before X (analysis/pairs.c). The four access kinds
 * give the scenario, the scenario gives the barrier each side needs; a side
 * with no barrier misses one, a side with too weak a barrier has a weak
 * one. Both rules come from this one comparison of a side with its need;
 * weak_barrier.c holds weak-barrier's other check, of a barrier alone. */
#include "rules/rules.h"

#include <stdlib.h>

static bp_side side_of(const bp_ordering *ordering) {
  return (bp_side){ordering->function, ordering->first, ordering->second, ordering->barrier,
                   ordering->strength};
}

/* The side's order is made again further on, and the loop goes round on
 * what that second read finds: on every path on from the side's second
 * access, the function accesses the first object again, then a barrier
 * strong enough, then reads the second object again in the test of a loop
 * that goes round again (liburcu's hash table resize: `resize_initiated =
 * 1; target = resize_target; ... resize_initiated = 0; cmm_smp_mb(); }
 * while (size != resize_target)`). The first read is an early look that
 * the loop checks again, ordered, and does its work again on. */
static bool ordered_again(const bp_analysis *analysis, const bp_ordering *side, unsigned need) {
  const bp_engine *engine = analysis->engine;
  if (side->second_kind != BP_ACCESS_LOAD)
    return false;
  bp_vec rereads, barriers, firsts;
  bp_vec_init(&rereads, sizeof(uint32_t));
  bp_vec_init(&barriers, sizeof(uint32_t));
  bp_vec_init(&firsts, sizeof(uint32_t));
  const bp_function *function = bp_vec_at(&engine->functions, side->function);
  for (size_t b = 0; b < function->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&function->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
      const bp_event *event = bp_event_get(engine, id);
      if (event->type == BP_EVENT_BARRIER && (event->strength & need) == need)
        *(uint32_t *)bp_vec_push(&barriers) = id;
      if (event->type != BP_EVENT_ACCESS)
        continue;
      if (id != side->first && event->object == side->first_object &&
          event->kind == side->first_kind)
        *(uint32_t *)bp_vec_push(&firsts) = id;
      if (id != side->second && event->object == side->second_object &&
          event->kind == BP_ACCESS_LOAD && bp_decides_next_round(engine, id))
        *(uint32_t *)bp_vec_push(&rereads) = id;
    }
  }
  /* each event a way must meet is worked out once (a function with many
   * barriers and loads asked the same of every pair) */
  bool again = false;
  bool work = rereads.count && barriers.count && firsts.count;
  bp_reach_target *to_barrier = work ? calloc(barriers.count, sizeof *to_barrier) : NULL;
  bool *first_follows = work ? calloc(firsts.count, sizeof *first_follows) : NULL;
  if (work && (!to_barrier || !first_follows))
    abort();
  for (size_t f = 0; first_follows && f < firsts.count; f++)
    first_follows[f] = bp_always_reaches(engine, side->second, *(uint32_t *)bp_vec_at(&firsts, f));
  for (size_t r = 0; first_follows && !again && r < rereads.count; r++) {
    bp_reach_target to_reread;
    if (!bp_reach_target_init(engine, *(uint32_t *)bp_vec_at(&rereads, r), &to_reread))
      continue;
    for (size_t b = 0; !again && b < barriers.count; b++) {
      uint32_t barrier = *(uint32_t *)bp_vec_at(&barriers, b);
      if (!bp_reaches_target(engine, &to_reread, barrier))
        continue;
      if (!to_barrier[b].meets && !bp_reach_target_init(engine, barrier, &to_barrier[b]))
        continue;
      for (size_t f = 0; !again && f < firsts.count; f++)
        again = first_follows[f] &&
                bp_reaches_target(engine, &to_barrier[b], *(uint32_t *)bp_vec_at(&firsts, f));
    }
    bp_reach_target_free(&to_reread);
  }
  for (size_t b = 0; to_barrier && b < barriers.count; b++)
    bp_reach_target_free(&to_barrier[b]);
  free(to_barrier);
  free(first_follows);
  bp_vec_free(&rereads);
  bp_vec_free(&barriers);
  bp_vec_free(&firsts);
  return again;
}

/* `scenario` has `side` as CPU 0. */
static void check_side(bp_analysis *analysis, const bp_ordering *side, const bp_ordering *partner,
                       int scenario) {
  unsigned need = bp_scenario_need(scenario, 0);
  /* only where the partner's order is enough: then the dependency is what
   * leaves the pairing open */
  unsigned partner_need = bp_scenario_need(scenario, 1);
  bool by_dependency = bp_dependency_too_weak(analysis->engine, side, scenario) &&
                       (partner->strength & partner_need) == partner_need;
  if (((side->strength & need) == need && !by_dependency) || ordered_again(analysis, side, need))
    return;
  if ((partner->strength & BP_STRENGTH_MEMBARRIER) && side->barrier != BP_NO_EVENT)
    return; /* the partner's membarrier makes this side's barrier, a compiler one too, full */
  if ((side->strength & BP_STRENGTH_LOCAL) &&
      (bp_local_order_suffices(analysis->engine, side, partner) ||
       (bp_scenario_third_cpu(scenario) && bp_third_writers_serialised(analysis, side, partner))))
    return; /* release and acquire, where LKMM says they are enough */
  if (!bp_means_its_half(analysis->engine, partner, side, bp_scenario_mirror(scenario)))
    return; /* the partner orders only locally where the row needs a third CPU */
  /* an order nobody claimed (the partner's unlock followed by a lock, there
   * to exclude) asks nothing of this side, whether it has no barrier or
   * one too weak, unless it reads its second object only when its first
   * says so: a flag's check, message passing meant */
  if (partner->by_locks && !bp_event_guarded_by(analysis->engine, side->second, side->first_object))
    return;
  /* a compiler barrier where the order was meant is a barrier too weak */
  bp_rule rule = !by_dependency && (side->strength || side->barrier != BP_NO_EVENT)
                     ? BP_RULE_WEAK_BARRIER
                     : BP_RULE_MISSING_BARRIER;
  bp_finding *finding = bp_add_candidate(analysis, rule);
  if (!finding)
    return;
  finding->at = rule == BP_RULE_WEAK_BARRIER ? side->barrier : side->second;
  finding->scenario = scenario;
  finding->side = side_of(side);
  finding->partner = side_of(partner);
  finding->need = need;
  finding->family = bp_event_family(
      analysis->engine, rule == BP_RULE_WEAK_BARRIER ? side->barrier : partner->barrier);
}

/* Only the rows whose outcome the pair sees in its own loads, without
 * --beta: a third CPU's store, scenario 0's too, or a final value that only
 * a later reader sees is evidence the pairing alone does not give
 * (docs/rules/missing-barrier.md). */
static void check_sides(bp_analysis *analysis, const bp_ordering *cpu0, const bp_ordering *cpu1,
                        int scenario) {
  if (!bp_scenario_seen_by_pair(scenario) && !analysis->options->beta)
    return;
  check_side(analysis, cpu0, cpu1, scenario);
  check_side(analysis, cpu1, cpu0, bp_scenario_mirror(scenario));
}

static bool marked(const bp_engine *engine, uint32_t event) {
  return bp_event_get(engine, event)->marked;
}

/* A side with no barrier is a missing barrier only where the code says
 * that it runs against the barriered side: it marks both accesses (the
 * programmer said "this races"), or the two functions are the entries of
 * threads. In a row of two CPUs (where no third function's store takes
 * part), weaker evidence is enough: the side marks the flag of a message
 * whose payload may stay plain (a marked load first, or a marked store
 * second), or marks one access and the two functions pair barriers
 * elsewhere. */
static bool races_with(bp_analysis *analysis, const bp_ordering *unordered,
                       const bp_ordering *ordered, int scenario) {
  const bp_engine *engine = analysis->engine;
  bool first = marked(engine, unordered->first), second = marked(engine, unordered->second);
  if ((first && second) || bp_thread_entries(analysis, unordered->function, ordered->function))
    return true;
  if (bp_scenario_third_cpu(scenario))
    return false;
  bool flag_marked = (first && unordered->first_kind == BP_ACCESS_LOAD) ||
                     (second && unordered->second_kind == BP_ACCESS_STORE);
  return flag_marked ||
         ((first || second) && bp_are_partners(analysis, unordered->function, ordered->function));
}

/* `id` is a marked store of a value loaded from `*loaded`. */
static bool hands_on(const bp_engine *engine, uint32_t id, const void *loaded) {
  const bp_event *event = bp_event_get(engine, id);
  return event->type == BP_EVENT_ACCESS && event->kind == BP_ACCESS_STORE && event->marked &&
         bp_event_writes_value_of(engine, id, *(const uint32_t *)loaded);
}

/* A side that loads twice with no barrier between means message passing
 * only where it acts on its first load: the second load is under its check
 * (`if (READ_ONCE(flag)) data`), the first load is under a check of the
 * second object read before (a sequence count read again to validate the
 * data read under it), or a marked store hands the first value on to others
 * (an epoch entered, published before the section's reads). Two loads of
 * state that nobody acts on together (statistics, heuristics, litmus tests
 * that only look) are two snapshots, whatever a barrier elsewhere orders;
 * --beta reports them. */
static bool acts_on_first_load(const bp_engine *engine, const bp_ordering *side) {
  return side->first_kind != BP_ACCESS_LOAD || side->second_kind != BP_ACCESS_LOAD ||
         bp_event_guarded_by(engine, side->second, side->first_object) ||
         bp_event_guarded_by(engine, side->first, side->second_object) ||
         bp_function_has_event(engine, side->function, hands_on, &side->first_object);
}

/* A barriered side against one with no barrier. */
static void check_missing_barrier(bp_analysis *analysis, const bp_ordering *cpu0,
                                  const bp_ordering *cpu1) {
  if (!cpu0->strength && !cpu1->strength && cpu0->barrier != BP_NO_EVENT &&
      cpu1->barrier != BP_NO_EVENT && bp_can_pair(analysis, cpu0, cpu1)) {
    /* both sides meant an order (release then acquire, a compiler barrier)
     * where they need a stronger one */
    check_sides(analysis, cpu0, cpu1, bp_pair_scenario(cpu0, cpu1));
    return;
  }
  if (!cpu0->strength == !cpu1->strength)
    return;
  const bp_ordering *unordered = cpu0->strength ? cpu1 : cpu0;
  const bp_ordering *ordered = cpu0->strength ? cpu0 : cpu1;
  int scenario = bp_pair_scenario(cpu0, cpu1);
  if (!races_with(analysis, unordered, ordered, scenario) || !bp_can_pair(analysis, cpu0, cpu1))
    return;
  if (!analysis->options->beta && !acts_on_first_load(analysis->engine, unordered))
    return;
  check_sides(analysis, cpu0, cpu1, scenario);
}

/* First the pairs of barriers, then the sides with no barrier, which need
 * every partner that the pairs of barriers found. */
void bp_check_missing_barriers(bp_analysis *analysis) {
  for (size_t i = 0; i < analysis->barrier_pairs.count; i++) {
    const bp_barrier_pair *pair = bp_vec_at(&analysis->barrier_pairs, i);
    check_sides(analysis, bp_vec_at(&analysis->orderings, pair->cpu0),
                bp_vec_at(&analysis->orderings, pair->cpu1), pair->scenario);
  }
  bp_for_each_mirror(analysis, check_missing_barrier);
}
