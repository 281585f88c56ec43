/* The driver: one analysis run through the pipeline of lib/README.md. The
 * program model is built; the analysis computes what every rule reads and
 * pairs barriers with barriers; the rules of the registry add candidates;
 * the findings stage applies suppressions and merges the candidates into
 * findings sorted by place. */
#include "findings/findings.h"
#include "rules/rules.h"

size_t bp_analyze(bp_engine *engine, const bp_options *options, bp_finding **findings) {
  bp_options defaults = {0};
  bp_resolve_pointees(engine);
  bp_unify_instances(engine);
  bp_resolve_fresh_parameters(engine);
  bp_find_unit_families(engine);
  bp_analysis analysis;
  bp_analysis_begin(&analysis, engine, options ? options : &defaults);
  bp_pair_barriers(&analysis);
  size_t check_count;
  const bp_rule_check *checks = bp_rule_checks(&check_count);
  for (size_t i = 0; i < check_count; i++)
    checks[i].check(&analysis);
  bp_apply_suppressions(&analysis);
  size_t count = bp_merge_findings(&analysis, findings);
  bp_analysis_end(&analysis);
  return count;
}
