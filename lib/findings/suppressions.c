/* Suppressions: an ignore annotation drops the candidates of its rule on
 * its lines, after every rule has run; one that drops nothing, names no
 * rule or gives no reason is itself a stale-annotation finding. */
#include "findings/findings.h"

#include <stdlib.h>

static int rule_of(const bp_engine *engine, const bp_annotation_record *annotation) {
  return bp_rule_find(bp_interner_get(&engine->names, annotation->name));
}

static bool suppresses(const bp_engine *engine, const bp_annotation_record *annotation,
                       const bp_finding *finding) {
  const bp_event *at = bp_event_get(engine, finding->at);
  return annotation->kind == BP_ANNOTATION_IGNORE &&
         rule_of(engine, annotation) == (int)finding->rule &&
         at->location.file == annotation->location.file &&
         bp_annotation_applies_to_line(annotation, at->location.line);
}

/* Whether an access or a barrier stands where the suppression applies: a
 * suppression beside nothing is stale in any scope. */
static bool beside_code(const bp_vec *entries, const bp_annotation_record *annotation) {
  size_t begin;
  if (bp_entries_on_lines(entries, annotation->location.file, annotation->first_line,
                          annotation->last_line, &begin) > begin)
    return true;
  return annotation->next_code_line &&
         bp_entries_on_lines(entries, annotation->location.file, annotation->next_code_line,
                             annotation->next_code_line, &begin) > begin;
}

static bool not_suppressed(const bp_analysis *analysis, const bp_finding *finding, void *used) {
  const bp_engine *engine = analysis->engine;
  bool dropped = false;
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    if (suppresses(engine, bp_vec_at(&engine->annotations, a), finding))
      dropped = ((bool *)used)[a] = true;
  }
  return !dropped;
}

void bp_apply_suppressions(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count)
    return;
  bool *used = calloc(engine->annotations.count, sizeof *used);
  if (!used)
    abort();
  /* Candidates are few and suppressions fewer: every pair is cheap. */
  bp_keep_candidates(analysis, 0, not_suppressed, used);

  bp_vec entries = bp_events_by_line(engine);
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = bp_vec_at(&engine->annotations, a);
    if (annotation->kind != BP_ANNOTATION_IGNORE)
      continue;
    int rule = rule_of(engine, annotation);
    bool stale = rule >= 0 && !used[a] && !analysis->options->disabled[rule] &&
                 (bp_whole_program(analysis) || !beside_code(&entries, annotation));
    if (rule < 0)
      bp_add_annotation_candidate(analysis, a, BP_PROBLEM_UNKNOWN_RULE, BP_NO_EVENT, NULL, 0);
    else if (stale)
      bp_add_annotation_candidate(analysis, a, BP_PROBLEM_SILENCES_NOTHING, BP_NO_EVENT, NULL, 0);
    else if (!*bp_interner_get(&engine->names, annotation->reason))
      bp_add_annotation_candidate(analysis, a, BP_PROBLEM_NO_REASON, BP_NO_EVENT, NULL, 0);
  }
  bp_vec_free(&entries);
  free(used);
}
