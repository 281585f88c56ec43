/* The sink the rules add candidate findings to. Candidates are merged as
 * they are made: one per rule and place (per rule and event for
 * missing-access-once, whose payloads are dropped by event), keeping the one
 * that sorts first and counting the partners of the others, so that memory
 * follows the program and not the number of pairings (a kernel gives tens
 * of millions). The findings stage finishes the merge (findings/merge.c). */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

struct bp_candidate_index {
  uint32_t *slots; /* candidate index + 1; 0 = empty */
  size_t slot_count, used;
  bool pending; /* the last candidate is being filled by its rule */
  /* per event, its rank among its function's events */
  uint32_t *ranks;
};

static struct bp_candidate_index *index_of(bp_analysis *analysis) {
  if (!analysis->candidate_index) {
    analysis->candidate_index = calloc(1, sizeof *analysis->candidate_index);
    if (!analysis->candidate_index)
      abort();
  }
  return analysis->candidate_index;
}

static int compare_functions(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (a == b)
    return 0;
  if (a == BP_NO_FUNCTION || b == BP_NO_FUNCTION)
    return a == BP_NO_FUNCTION ? 1 : -1;
  int order = strcmp(bp_function_name(engine, a), bp_function_name(engine, b));
  /* one function's copies in two units (a file another includes, built
   * twice) differ by their unit */
  return order ? order : strcmp(bp_function_unit(engine, a), bp_function_unit(engine, b));
}

static int compare_objects(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (a == b)
    return 0;
  if (a == BP_NO_OBJECT || b == BP_NO_OBJECT)
    return a == BP_NO_OBJECT ? -1 : 1;
  return strcmp(bp_object_display(engine, a), bp_object_display(engine, b));
}

static const uint32_t *event_ranks(const bp_analysis *analysis) {
  struct bp_candidate_index *index = index_of((bp_analysis *)analysis);
  if (index->ranks)
    return index->ranks;
  const bp_engine *engine = analysis->engine;
  size_t count = bp_event_count(engine);
  uint32_t *ranks = malloc((count + 1) * sizeof *ranks);
  if (!ranks)
    abort();
  for (uint32_t id = 0; id < count; id++) {
    uint32_t function = bp_event_get(engine, id)->function;
    ranks[id] =
        id > 0 && bp_event_get(engine, id - 1)->function == function ? ranks[id - 1] + 1 : 0;
  }
  return index->ranks = ranks;
}

/* Events by place, then function and rank: one event compares equal only
 * to itself, whatever the ids. Places and names, never ids: ids follow the
 * order in which a front end met files and functions, and `link` meets them
 * in another order than `check`; the same program must give the same
 * findings. */
static int compare_places(const bp_analysis *analysis, uint32_t a, uint32_t b) {
  if (a == b)
    return 0;
  if (a == BP_NO_EVENT || b == BP_NO_EVENT)
    return a == BP_NO_EVENT ? -1 : 1;
  const bp_engine *engine = analysis->engine;
  int order = bp_compare_locations(engine, a, b);
  if (order)
    return order;
  if ((order = compare_functions(engine, bp_event_get(engine, a)->function,
                                 bp_event_get(engine, b)->function)))
    return order;
  const uint32_t *ranks = event_ranks(analysis);
  BP_COMPARE(ranks[a], ranks[b]);
  return 0;
}

int bp_compare_candidates(const bp_analysis *analysis, const bp_finding *a, const bp_finding *b) {
  const bp_engine *engine = analysis->engine;
  int order = bp_compare_locations(engine, a->at, b->at);
  if (order)
    return order;
  BP_COMPARE(a->rule, b->rule);
  if (a->rule == BP_RULE_MISSING_ACCESS_ONCE) {
    const bp_event *ea = bp_event_get(engine, a->at), *eb = bp_event_get(engine, b->at);
    if ((order =
             strcmp(bp_object_display(engine, ea->object), bp_object_display(engine, eb->object))))
      return order;
    BP_COMPARE(ea->kind, eb->kind);
  }
  if ((order = compare_places(analysis, a->at, b->at)))
    return order;
  /* a finding with a partner says more than a barrier's kind alone */
  BP_COMPARE(a->partner.function == BP_NO_FUNCTION, b->partner.function == BP_NO_FUNCTION);
  if ((order = compare_places(analysis, a->side.first, b->side.first)) ||
      (order = compare_functions(engine, a->partner.function, b->partner.function)) ||
      (order = compare_places(analysis, a->partner.first, b->partner.first)) ||
      (order = compare_places(analysis, a->partner.second, b->partner.second)))
    return order;
  /* what the message says besides: the same candidates in every order */
  BP_COMPARE(a->scenario, b->scenario);
  BP_COMPARE(a->need, b->need);
  if ((order = compare_places(analysis, a->side.second, b->side.second)) ||
      (order = compare_places(analysis, a->side.barrier, b->side.barrier)) ||
      (order = compare_places(analysis, a->partner.barrier, b->partner.barrier)) ||
      (order = compare_places(analysis, a->race, b->race)) ||
      (order = compare_objects(engine, a->check_object, b->check_object)))
    return order;
  BP_COMPARE(a->chain_length, b->chain_length);
  for (uint32_t link = 1; link < a->chain_length; link++)
    if ((order = compare_functions(engine, a->chain[link].function, b->chain[link].function)) ||
        (order = compare_places(analysis, a->chain[link].first, b->chain[link].first)) ||
        (order = compare_places(analysis, a->chain[link].second, b->chain[link].second)))
      return order;
  BP_COMPARE(a->at, b->at);
  BP_COMPARE(a->side.first, b->side.first);
  BP_COMPARE(a->partner.first, b->partner.first);
  return 0;
}

/* The key candidates merge by: the rule and the place of `at`, or `at`
 * itself for missing-access-once. */
static bool same_key(const bp_engine *engine, const bp_finding *a, const bp_finding *b) {
  if (a->rule != b->rule)
    return false;
  if (a->at == b->at)
    return true;
  if (a->rule == BP_RULE_MISSING_ACCESS_ONCE)
    return false;
  return bp_same_location(bp_event_get(engine, a->at)->location,
                          bp_event_get(engine, b->at)->location);
}

static size_t key_hash(const bp_engine *engine, const bp_finding *finding) {
  uint64_t hash = (uint64_t)finding->rule * 0x9E3779B97F4A7C15u;
  if (finding->rule == BP_RULE_MISSING_ACCESS_ONCE) {
    hash ^= finding->at;
  } else {
    const bp_location *at = &bp_event_get(engine, finding->at)->location;
    hash ^= ((uint64_t)at->file << 40) ^ ((uint64_t)at->line << 16) ^ at->column;
  }
  hash *= 0xFF51AFD7ED558CCDu;
  return (size_t)(hash ^ (hash >> 29));
}

static void grow_slots(bp_analysis *analysis, struct bp_candidate_index *index) {
  free(index->slots);
  index->slot_count = index->slot_count ? index->slot_count * 2 : 1024;
  index->slots = calloc(index->slot_count, sizeof *index->slots);
  if (!index->slots)
    abort();
  index->used = 0;
  bp_vec *candidates = &analysis->candidates;
  size_t settled = candidates->count - (index->pending ? 1 : 0);
  for (size_t i = 0; i < settled; i++) {
    size_t slot = key_hash(analysis->engine, bp_vec_at(candidates, i)) & (index->slot_count - 1);
    while (index->slots[slot])
      slot = (slot + 1) & (index->slot_count - 1);
    index->slots[slot] = (uint32_t)i + 1;
    index->used++;
  }
}

/* Folds the candidate its rule has just filled into the one of its key, if
 * there is one: the one that sorts first stays, and the other's partner
 * counts among the further pairings. */
static void settle_pending(bp_analysis *analysis) {
  struct bp_candidate_index *index = index_of(analysis);
  if (!index->pending)
    return;
  if ((index->used + 1) * 2 > index->slot_count)
    grow_slots(analysis, index);
  index->pending = false;
  bp_vec *candidates = &analysis->candidates, *merged = &analysis->merged_pairings;
  size_t last = candidates->count - 1;
  bp_finding *fresh = bp_vec_at(candidates, last);
  size_t slot = key_hash(analysis->engine, fresh) & (index->slot_count - 1);
  for (; index->slots[slot]; slot = (slot + 1) & (index->slot_count - 1)) {
    size_t kept = index->slots[slot] - 1;
    bp_finding *old = bp_vec_at(candidates, kept);
    if (!same_key(analysis->engine, old, fresh))
      continue;
    bool first = bp_compare_candidates(analysis, fresh, old) < 0;
    const bp_finding *dropped = first ? old : fresh;
    uint32_t *count = bp_vec_at(merged, kept);
    *count += (dropped->partner.function != BP_NO_FUNCTION) + *(uint32_t *)bp_vec_at(merged, last);
    if (first)
      *old = *fresh;
    candidates->count--;
    merged->count--;
    return;
  }
  index->slots[slot] = (uint32_t)last + 1;
  index->used++;
}

bp_finding *bp_add_candidate(bp_analysis *analysis, bp_rule rule) {
  if (analysis->options->disabled[rule])
    return NULL;
  settle_pending(analysis);
  bp_finding *finding = bp_vec_push(&analysis->candidates);
  bp_vec_push(&analysis->merged_pairings);
  index_of(analysis)->pending = true;
  finding->rule = rule;
  finding->scenario = -1;
  finding->partner.function = BP_NO_FUNCTION;
  finding->partner.first = finding->partner.second = finding->partner.barrier = BP_NO_EVENT;
  finding->race = BP_NO_EVENT;
  finding->check_object = BP_NO_OBJECT;
  return finding;
}

void bp_settle_candidates(bp_analysis *analysis) {
  settle_pending(analysis);
}

void bp_keep_candidates(bp_analysis *analysis, size_t first, bp_candidate_filter keep,
                        void *context) {
  settle_pending(analysis);
  bp_vec *candidates = &analysis->candidates, *merged = &analysis->merged_pairings;
  size_t kept = first;
  for (size_t i = first; i < candidates->count; i++) {
    bp_finding *finding = bp_vec_at(candidates, i);
    if (!keep(analysis, finding, context))
      continue;
    if (kept != i) {
      *(bp_finding *)bp_vec_at(candidates, kept) = *finding;
      *(uint32_t *)bp_vec_at(merged, kept) = *(uint32_t *)bp_vec_at(merged, i);
    }
    kept++;
  }
  if (kept == candidates->count)
    return;
  candidates->count = merged->count = kept;
  /* indexes moved: the next candidate rebuilds the slots */
  struct bp_candidate_index *index = index_of(analysis);
  index->slot_count /= 2;
  grow_slots(analysis, index);
}

void bp_free_candidate_index(bp_analysis *analysis) {
  if (!analysis->candidate_index)
    return;
  free(analysis->candidate_index->slots);
  free(analysis->candidate_index->ranks);
  free(analysis->candidate_index);
  analysis->candidate_index = NULL;
}

void bp_add_annotation_candidate(bp_analysis *analysis, uint32_t index,
                                 bp_annotation_problem problem, uint32_t barrier,
                                 const bp_side *partner, uint32_t other_partners) {
  bp_finding *finding = bp_add_candidate(analysis, BP_RULE_STALE_ANNOTATION);
  if (!finding)
    return;
  const bp_engine *engine = analysis->engine;
  const bp_event *at = barrier == BP_NO_EVENT ? NULL : bp_event_get(engine, barrier);
  const bp_annotation_record *annotation = bp_vec_at(&engine->annotations, index);
  finding->at = annotation->event;
  finding->annotation = index;
  finding->problem = problem;
  finding->side = (bp_side){at ? at->function : BP_NO_FUNCTION, BP_NO_EVENT, BP_NO_EVENT, barrier,
                            at ? at->strength : 0};
  if (partner)
    finding->partner = *partner;
  finding->other_pairings = other_partners;
}
