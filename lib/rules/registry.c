/* The rules in the order bp_analyze runs them. The order matters where one
 * rule reads what an earlier one left in the analysis: unpaired-barrier
 * reads the barriers that cycles pair (transitive-weak-barrier), and
 * stale-annotation runs last so that it sees every other rule's work.
 * Every check runs even when its rules are disabled, since what it leaves
 * in the analysis is read by later ones. */
#include "rules/rules.h"

static const bp_rule_check checks[] = {
    {bp_check_missing_barriers, 2, {BP_RULE_MISSING_BARRIER, BP_RULE_WEAK_BARRIER}},
    {bp_check_missing_access_once, 1, {BP_RULE_MISSING_ACCESS_ONCE}},
    {bp_check_transitive_weak_barriers,
     2,
     {BP_RULE_TRANSITIVE_WEAK_BARRIER, BP_RULE_MISSING_BARRIER}},
    {bp_check_unpaired_barriers, 1, {BP_RULE_UNPAIRED_BARRIER}},
    {bp_check_barrier_kinds, 1, {BP_RULE_WEAK_BARRIER}},
    {bp_check_stores_after_publication, 1, {BP_RULE_STORE_AFTER_PUBLICATION}},
    {bp_check_broken_contracts, 1, {BP_RULE_BROKEN_CONTRACT}},
    {bp_check_stale_annotations, 1, {BP_RULE_STALE_ANNOTATION}},
};

const bp_rule_check *bp_rule_checks(size_t *count) {
  *count = sizeof checks / sizeof checks[0];
  return checks;
}
