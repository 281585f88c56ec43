/* Fix-its, computed from the engine's own locations so that every front end
 * (the plugin, the command-line driver, an editor) offers the same edit. */
#include "findings/findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool somewhere(bp_location location) {
  return location.line != 0;
}

static bool before(bp_location a, bp_location b) {
  if (a.file != b.file)
    return false;
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

static char *copy(const char *text) {
  size_t length = strlen(text) + 1;
  char *result = malloc(length);
  if (!result)
    abort();
  memcpy(result, text, length);
  return result;
}

/* `barrier` on a line of its own before `statement`, the start of
 * `event`'s statement, indented as it is. */
static bool insert_before(const bp_engine *engine, uint32_t event, bp_location statement,
                          const char *barrier, bp_fix *fix) {
  const char *indentation = bp_event_indentation(engine, event);
  size_t size = strlen(barrier) + strlen(indentation) + 3;
  char *text = malloc(size);
  if (!text)
    abort();
  snprintf(text, size, "%s;\n%s", barrier, indentation);
  *fix = (bp_fix){statement, statement, text};
  return true;
}

bool bp_finding_fix(const bp_engine *engine, const bp_finding *finding, bp_fix *fix) {
  if (finding->rule == BP_RULE_MISSING_ACCESS_ONCE) {
    const bp_event *access = bp_event_text(engine, finding->at, BP_TEXT_ACCESS);
    if (!somewhere(access->access_begin) || !somewhere(access->access_end) ||
        !bp_event_lvalue_text(engine, finding->at)[0] ||
        (access->kind == BP_ACCESS_STORE && !bp_event_value_text(engine, finding->at)[0]))
      return false;
    *fix = (bp_fix){access->access_begin, access->access_end, bp_finding_marking(engine, finding)};
    return true;
  }
  const char *barrier = bp_finding_fix_barrier(finding);
  /* A barrier too weak where the order is needed becomes the one needed (a
   * broken contract's: the upstream fix of liburcu's signal flavour made
   * its read lock's cmm_barrier() a cmm_smp_mb()). */
  if ((finding->rule == BP_RULE_WEAK_BARRIER || finding->rule == BP_RULE_TRANSITIVE_WEAK_BARRIER ||
       finding->rule == BP_RULE_BROKEN_CONTRACT) &&
      finding->side.barrier != BP_NO_EVENT) {
    const bp_event *weak = bp_event_text(engine, finding->side.barrier, BP_TEXT_PLACE);
    if (weak && !weak->implicit && somewhere(weak->own_begin) && somewhere(weak->own_end)) {
      *fix = (bp_fix){weak->own_begin, weak->own_end, copy(barrier)};
      return true;
    }
  }
  if (finding->rule == BP_RULE_BROKEN_CONTRACT) {
    /* Before the first access a contract at ENTRY orders; after the last
     * one at EXIT would need the statement's end, which events lack. */
    const bp_event *access = bp_event_text(engine, finding->at, BP_TEXT_PLACE);
    if (bp_contract_get(finding->contract)->side != BP_CONTRACT_ENTRY || !access ||
        !somewhere(access->statement))
      return false;
    return insert_before(engine, finding->at, access->statement, barrier, fix);
  }
  /* Otherwise a new barrier goes in front of the statement of the second
   * access, when that statement comes after the first access's. */
  const bp_event *first = bp_event_text(engine, finding->side.first, BP_TEXT_PLACE);
  const bp_event *second = bp_event_text(engine, finding->side.second, BP_TEXT_PLACE);
  if (!first || !second || !somewhere(first->statement) || !somewhere(second->statement) ||
      !before(first->statement, second->statement))
    return false;
  return insert_before(engine, finding->side.second, second->statement, barrier, fix);
}
