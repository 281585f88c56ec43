/* One analysis run: collect orderings, run every check, merge the
 * candidates into findings sorted by place. */
#include "internal.h"

#include <stdlib.h>

static int compare_by_objects(const void *left, const void *right) {
  const bp_ordering *a = left, *b = right;
  BP_COMPARE(a->first_object, b->first_object);
  BP_COMPARE(a->second_object, b->second_object);
  BP_COMPARE(a->function, b->function);
  BP_COMPARE(a->first, b->first);
  BP_COMPARE(a->second, b->second);
  return 0;
}

void bp_collect_program_orderings(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  for (uint32_t f = 0; f < engine->functions.count; f++) {
    if (bp_may_run_concurrently(analysis, f))
      bp_collect_orderings(engine, f, &analysis->orderings);
  }
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

bp_finding *bp_add_candidate(bp_analysis *analysis, bp_rule rule) {
  if (analysis->options->disabled[rule])
    return NULL;
  bp_finding *finding = bp_vec_push(&analysis->candidates);
  finding->rule = rule;
  finding->scenario = -1;
  finding->partner.function = BP_NO_FUNCTION;
  finding->partner.first = finding->partner.second = finding->partner.barrier = BP_NO_EVENT;
  finding->race = BP_NO_EVENT;
  finding->check_object = BP_NO_OBJECT;
  return finding;
}

/* An event with no primitive (an access to an _Atomic object) is spelled
 * in the family of the other primitives of its function, and in C11's when
 * it has none: never in a library's that the code does not use. */
bp_family bp_event_family(const bp_engine *engine, uint32_t event) {
  const bp_event *e = event == BP_NO_EVENT ? NULL : bp_event_get(engine, event);
  if (!e)
    return BP_FAMILY_URCU;
  const bp_primitive *primitive = bp_primitive_get(e->primitive);
  if (primitive)
    return primitive->family;
  size_t count = bp_event_count(engine);
  for (uint32_t step = 1; step < count; step++) {
    for (int direction = -1; direction <= 1; direction += 2) {
      int64_t id = (int64_t)event + direction * (int64_t)step;
      if (id < 0 || (size_t)id >= count)
        continue;
      const bp_event *near = bp_event_get(engine, (uint32_t)id);
      if (near->function != e->function)
        continue;
      if ((primitive = bp_primitive_get(near->primitive)) != NULL)
        return primitive->family;
    }
    if ((event < step || bp_event_get(engine, event - step)->function != e->function) &&
        (event + step >= count || bp_event_get(engine, event + step)->function != e->function))
      break;
  }
  return BP_FAMILY_C11;
}

void bp_mark_paired(bp_analysis *analysis, uint32_t barrier) {
  if (barrier != BP_NO_EVENT)
    analysis->paired[barrier] = true;
}

static const bp_location *location_of(const bp_engine *engine, uint32_t event) {
  return &bp_event_get(engine, event)->location;
}

static const bp_engine *sorting_engine; /* qsort has no context argument in C11 */

static int compare_candidates(const void *left, const void *right) {
  const bp_finding *a = left, *b = right;
  const bp_location *la = location_of(sorting_engine, a->at);
  const bp_location *lb = location_of(sorting_engine, b->at);
  BP_COMPARE(la->file, lb->file);
  BP_COMPARE(la->line, lb->line);
  BP_COMPARE(la->column, lb->column);
  BP_COMPARE(a->at, b->at);
  BP_COMPARE(a->rule, b->rule);
  /* a finding with a partner says more than a barrier's kind alone */
  BP_COMPARE(a->partner.function == BP_NO_FUNCTION, b->partner.function == BP_NO_FUNCTION);
  BP_COMPARE(a->side.first, b->side.first);
  BP_COMPARE(a->partner.function, b->partner.function);
  BP_COMPARE(a->partner.first, b->partner.first);
  BP_COMPARE(a->partner.second, b->partner.second);
  return 0;
}

/* One access written once may be several events (a macro that loads its
 * argument twice): one place for missing-access-once. */
static bool same_place(const bp_engine *engine, const bp_finding *a, const bp_finding *b) {
  if (a->rule != b->rule)
    return false;
  if (a->at == b->at)
    return true;
  if (a->rule != BP_RULE_MISSING_ACCESS_ONCE)
    return false;
  const bp_event *ea = bp_event_get(engine, a->at), *eb = bp_event_get(engine, b->at);
  return ea->location.file == eb->location.file && ea->location.line == eb->location.line &&
         ea->location.column == eb->location.column && ea->object == eb->object &&
         ea->kind == eb->kind;
}

/* One finding per rule and place; the other partners are counted. */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings) {
  bp_vec *candidates = &analysis->candidates;
  sorting_engine = analysis->engine;
  if (candidates->count)
    qsort(candidates->items, candidates->count, sizeof(bp_finding), compare_candidates);
  bp_finding *items = candidates->items;
  size_t unique = 0;
  for (size_t i = 0; i < candidates->count; i++) {
    if (unique && same_place(analysis->engine, &items[unique - 1], &items[i])) {
      if (items[i].partner.function != BP_NO_FUNCTION)
        items[unique - 1].other_pairings++;
      continue;
    }
    items[unique++] = items[i];
  }
  *findings = items;
  return unique;
}

void bp_analysis_begin(bp_analysis *analysis, const bp_engine *engine, const bp_options *options) {
  *analysis = (bp_analysis){.engine = engine, .options = options};
  bp_vec_init(&analysis->orderings, sizeof(bp_ordering));
  bp_vec_init(&analysis->candidates, sizeof(bp_finding));
  analysis->paired = calloc(bp_event_count(engine) + 1, sizeof *analysis->paired);
  if (!analysis->paired)
    abort();
  bp_compute_threads(analysis);
  bp_compute_concurrency(analysis);
  bp_collect_program_orderings(analysis);
  bp_compute_held_locks(analysis);
  bp_index_marking(analysis);
}

void bp_analysis_end(bp_analysis *analysis) {
  bp_vec_free(&analysis->orderings);
  bp_free_marking(analysis);
  free(analysis->held);
  bp_free_threads(analysis);
  bp_free_concurrency(analysis);
  free(analysis->paired);
}

size_t bp_analyze(bp_engine *engine, const bp_options *options, bp_finding **findings) {
  bp_options defaults = {0};
  bp_unify_instances(engine);
  bp_analysis analysis;
  bp_analysis_begin(&analysis, engine, options ? options : &defaults);
  bp_check_pairs(&analysis);
  bp_check_chains(&analysis);
  bp_honour_declared_pairings(&analysis);
  bp_check_unpaired(&analysis);
  bp_check_barrier_kinds(&analysis);
  bp_check_annotations(&analysis);
  bp_apply_suppressions(&analysis);
  size_t count = bp_merge_findings(&analysis, findings);
  bp_analysis_end(&analysis);
  return count;
}
