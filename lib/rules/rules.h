/* The rules, the third stage of the pipeline: each reads the analysis and
 * adds candidate findings through its sink (analysis/candidates.c). A rule
 * never calls another rule; what one needs of another's work (the pairs of
 * barriers, the barriers a cycle pairs) is in the analysis. registry.c
 * lists them in the order the driver runs them. */
#ifndef BARRIERPAIR_RULES_H
#define BARRIERPAIR_RULES_H

#include "analysis/analysis.h"

/* missing_barrier.c: missing-barrier and weak-barrier, each side of a pair
 * against the barrier its scenario needs. */
void bp_check_missing_barriers(bp_analysis *analysis);
/* missing_access_once.c: the accesses of the pairs of barriers. */
void bp_check_missing_access_once(bp_analysis *analysis);
/* transitive_weak_barrier.c: cycles of three or more functions; marks the
 * barriers of every cycle paired. */
void bp_check_transitive_weak_barriers(bp_analysis *analysis);
/* unpaired_barrier.c: after every rule that pairs barriers. */
void bp_check_unpaired_barriers(bp_analysis *analysis);
/* weak_barrier.c: weak-barrier from a barrier's kind alone. */
void bp_check_barrier_kinds(bp_analysis *analysis);
/* store_after_publication.c: stores into fresh memory after its
 * publication. */
void bp_check_stores_after_publication(bp_analysis *analysis);
/* broken_contract.c: functions against their library's contract. */
void bp_check_broken_contracts(bp_analysis *analysis);
/* stale_annotation.c: after every other rule. */
void bp_check_stale_annotations(bp_analysis *analysis);

/* One entry of the registry: a check and the rules whose findings it adds. */
#define BP_RULE_CHECK_RULES_MAX 2
typedef struct {
  void (*check)(bp_analysis *analysis);
  size_t rule_count;
  bp_rule rules[BP_RULE_CHECK_RULES_MAX];
} bp_rule_check;

/* registry.c: every check, in the order the driver runs them. */
const bp_rule_check *bp_rule_checks(size_t *count);

#endif
