/* The sink the rules add candidate findings to; the findings stage merges
 * them (findings/merge.c) once every rule has run. */
#include "analysis/analysis.h"

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
