/* The words of a finding: shared by every front end, so the plugin, the CLI
 * and the editor say the same thing. */
#include "findings/findings.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void append_access(bp_text *buffer, const bp_engine *engine, uint32_t event) {
  const bp_event *access = bp_event_get(engine, event);
  bp_text_append(buffer, access->kind == BP_ACCESS_STORE ? "the store to '%s'" : "the load of '%s'",
                 bp_event_object_display(engine, event));
}

static void append_scenario_name(bp_text *buffer, int number) {
  const bp_scenario *scenario = bp_scenario_get(number);
  bp_text_append(buffer, "scenario %d", number);
  if (scenario && scenario->name[0])
    bp_text_append(buffer, " (%s)", scenario->name);
}

static const char *function_of(const bp_engine *engine, const bp_side *side) {
  return bp_function_name(engine, side->function);
}

/* " (in its call of 'ring_push')" when `event` is code of a helper its function calls. */
static void append_callee(bp_text *buffer, const bp_engine *engine, uint32_t event) {
  const char *callee = event == BP_NO_EVENT ? "" : bp_event_callee(engine, event);
  if (callee[0] && !bp_contract_barrier_name(engine, event))
    bp_text_append(buffer, " (in its call of '%s')", callee);
}

const char *bp_finding_fix_barrier(const bp_finding *finding) {
  return bp_barrier_spelling(finding->family, finding->need);
}

/* A read or write barrier with nothing of its kind on one side. */
static char *wrong_kind_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  bool loads = bp_event_get(engine, finding->side.barrier)->strength == BP_STRENGTH_LOADS;
  bp_text_append_barrier(&buffer, engine, finding->side.barrier);
  bp_text_append(
      &buffer, " orders only %s, but in '%s' it has no %s on one side: it stands between ",
      loads ? "loads" : "stores", function_of(engine, &finding->side), loads ? "load" : "store");
  append_access(&buffer, engine, finding->side.first);
  bp_text_append(&buffer, " and ");
  append_access(&buffer, engine, finding->side.second);
  bp_text_append(&buffer, "; this needs %s here", bp_finding_fix_barrier(finding));
  return buffer.text;
}

static const char *object_of(const bp_engine *engine, uint32_t event) {
  return bp_event_object_display(engine, event);
}

static char *unpaired_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  bp_text_append_barrier(&buffer, engine, finding->side.barrier);
  bp_text_append(&buffer,
                 " in '%s' pairs with no other function: none accesses '%s' and then '%s' "
                 "(its partner may be in code not analysed)",
                 function_of(engine, &finding->side), object_of(engine, finding->side.second),
                 object_of(engine, finding->side.first));
  return buffer.text;
}

/* " on a cycle through 'g' and 'h' ('x' -> 'y' -> 'z' -> 'x'); this needs
 * <fix> here (and N other cycles)" */
static void append_cycle(bp_text *buffer, const bp_engine *engine, const bp_finding *finding) {
  bp_text_append(buffer, " on a cycle through ");
  for (uint32_t k = 1; k < finding->chain_length; k++)
    bp_text_append(buffer, "%s'%s'",
                   k == 1                           ? ""
                   : k + 1 == finding->chain_length ? " and "
                                                    : ", ",
                   function_of(engine, &finding->chain[k]));
  bp_text_append(buffer, " (");
  for (uint32_t k = 0; k < finding->chain_length; k++)
    bp_text_append(buffer, "'%s' -> ", object_of(engine, finding->chain[k].first));
  bp_text_append(buffer, "'%s'); this needs %s here", object_of(engine, finding->side.first),
                 bp_finding_fix_barrier(finding));
  if (finding->other_pairings)
    bp_text_append(buffer, " (and %u other cycle%s)", finding->other_pairings,
                   finding->other_pairings == 1 ? "" : "s");
}

static char *transitive_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  bp_text_append_barrier(&buffer, engine, finding->side.barrier);
  bp_text_append(&buffer, " is not transitive, but '%s' orders ",
                 function_of(engine, &finding->side));
  append_access(&buffer, engine, finding->side.first);
  bp_text_append(&buffer, " before ");
  append_access(&buffer, engine, finding->side.second);
  bp_text_append(&buffer, " with it");
  append_cycle(&buffer, engine, finding);
  return buffer.text;
}

/* "the store to 'x' before the load of 'y' in 'f' (in its call of 'g')":
 * what a finding's side fails to order. */
static void append_side_order(bp_text *buffer, const bp_engine *engine, const bp_finding *finding) {
  append_access(buffer, engine, finding->side.first);
  bp_text_append(buffer, " before ");
  append_access(buffer, engine, finding->side.second);
  bp_text_append(buffer, " in '%s'", function_of(engine, &finding->side));
  append_callee(buffer, engine, finding->at);
}

/* missing-barrier on a cycle: the one link with no barrier. */
static char *missing_link_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  bp_text_append(&buffer, bp_dependency(engine, finding->side.barrier) ? "only a dependency orders "
                                                                       : "no barrier orders ");
  append_side_order(&buffer, engine, finding);
  bp_text_append(&buffer, ", a link");
  append_cycle(&buffer, engine, finding);
  return buffer.text;
}

/* How the fix marks the access: "CMM_LOAD_SHARED(data)" when the access's
 * text is known, "CMM_LOAD_SHARED()" otherwise. */
char *bp_finding_marking(const bp_engine *engine, const bp_finding *finding) {
  const bp_event *access = bp_event_get(engine, finding->at);
  const char *format = bp_marking_spelling(finding->family, access->kind);
  const char *lvalue = bp_event_lvalue_text(engine, finding->at);
  const char *value = bp_event_value_text(engine, finding->at);
  bp_text buffer = {0};
  if (lvalue[0] && (access->kind == BP_ACCESS_LOAD || value[0])) {
    bp_text_append(&buffer, format, lvalue, value);
  } else {
    const char *open = strchr(format, '(');
    bp_text_append(&buffer, "%.*s()", (int)(open ? open - format : (ptrdiff_t)strlen(format)),
                   format);
  }
  return buffer.text;
}

static char *marking_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  const bp_event *access = bp_event_get(engine, finding->at);
  append_access(&buffer, engine, finding->at);
  bp_text_append(&buffer, " in '%s'", function_of(engine, &finding->side));
  append_callee(&buffer, engine, finding->at);
  bp_text_append(&buffer, " is not marked, but it races with ");
  append_access(&buffer, engine, finding->race);
  bp_text_append(&buffer, " in '%s'",
                 bp_function_name(engine, bp_event_get(engine, finding->race)->function));
  /* A long or multi-line access is named by its marking alone. */
  char *marking = bp_finding_marking(engine, finding);
  bool named = marking[strlen(marking) - 2] != '(' || marking[strlen(marking) - 1] != ')';
  if (!named || strlen(marking) > 60 || strchr(marking, '\n')) {
    const char *format = bp_marking_spelling(finding->family, access->kind);
    bp_text_append(&buffer, "; mark it with %.*s()", (int)strcspn(format, "("), format);
  } else {
    bp_text_append(&buffer, "; mark it: %s", marking);
  }
  free(marking);
  if (finding->check_object != BP_NO_OBJECT)
    bp_text_append(&buffer, ", or %s it only after checking '%s'",
                   access->kind == BP_ACCESS_LOAD ? "load" : "store",
                   bp_object_display(engine, finding->check_object));
  if (finding->other_pairings)
    bp_text_append(&buffer, " (and %u other pairing%s)", finding->other_pairings,
                   finding->other_pairings == 1 ? "" : "s");
  return buffer.text;
}

static char *publication_message(const bp_engine *engine, const bp_finding *finding) {
  bp_text buffer = {0};
  append_access(&buffer, engine, finding->at);
  bp_text_append(&buffer, " in '%s'", function_of(engine, &finding->side));
  append_callee(&buffer, engine, finding->at);
  bp_text_append(&buffer,
                 " comes after a pointer to its memory was stored where other threads find it; "
                 "'%s' may read ",
                 bp_function_name(engine, bp_event_get(engine, finding->race)->function));
  bp_text_append(&buffer, "'%s'", object_of(engine, finding->at));
  bp_text_append(&buffer, " before it: store it before the publication");
  if (finding->other_pairings)
    bp_text_append(&buffer, " (and in %u other caller%s of its code)", finding->other_pairings,
                   finding->other_pairings == 1 ? "" : "s");
  return buffer.text;
}

/* What a contract orders, in words. */
static const char *contract_words(const bp_contract *contract) {
  bool entry = contract->side == BP_CONTRACT_ENTRY;
  if (contract->side == BP_CONTRACT_BARRIER)
    return contract->order == BP_ORDER_WMB   ? "it orders its caller's stores as a write barrier"
           : contract->order == BP_ORDER_RMB ? "it orders its caller's loads as a read barrier"
                                             : "it orders its caller's accesses as a full barrier";
  switch (contract->order) {
  case BP_ORDER_WMB:
    return entry ? "its caller's earlier stores come before its stores"
                 : "its stores come before its caller's later stores";
  case BP_ORDER_RMB:
    return entry ? "its caller's earlier loads come before its loads"
                 : "its loads come before its caller's later loads";
  case BP_ORDER_RELEASE:
    return "its caller's earlier loads and stores come before its stores";
  case BP_ORDER_ACQUIRE:
    return "its loads come before its caller's later loads and stores";
  default:
    return entry ? "its caller's earlier loads and stores come before its own"
                 : "its loads and stores come before its caller's later ones";
  }
}

static char *contract_message(const bp_engine *engine, const bp_finding *finding) {
  const bp_contract *contract = bp_contract_get(finding->contract);
  bool entry = contract->side == BP_CONTRACT_ENTRY;
  bp_text buffer = {0};
  if (contract->side == BP_CONTRACT_BARRIER) {
    bp_text_append(&buffer,
                   "no path through '%s' has a barrier that strong, but its contract says %s "
                   "(BP_CONTRACT(%s, BARRIER, %s)); this needs %s in it",
                   function_of(engine, &finding->side), contract_words(contract),
                   contract->function, bp_order_names[contract->order],
                   bp_finding_fix_barrier(finding));
    return buffer.text;
  }
  bp_text_append(&buffer, "no barrier in '%s' orders ", function_of(engine, &finding->side));
  append_access(&buffer, engine, finding->at);
  append_callee(&buffer, engine, finding->at);
  bp_text_append(&buffer,
                 " %s its caller's %s accesses, but its contract says %s "
                 "(BP_CONTRACT(%s, %s, %s)); this needs %s %s it",
                 entry ? "after" : "before", entry ? "earlier" : "later", contract_words(contract),
                 contract->function, bp_contract_side_names[contract->side],
                 bp_order_names[contract->order], bp_finding_fix_barrier(finding),
                 entry ? "before" : "after");
  return buffer.text;
}

char *bp_finding_message(const bp_engine *engine, const bp_finding *finding) {
  if (finding->rule == BP_RULE_BROKEN_CONTRACT)
    return contract_message(engine, finding);
  if (finding->rule == BP_RULE_MISSING_ACCESS_ONCE)
    return marking_message(engine, finding);
  if (finding->rule == BP_RULE_STALE_ANNOTATION)
    return bp_annotation_message(engine, finding);
  if (finding->rule == BP_RULE_UNPAIRED_BARRIER)
    return unpaired_message(engine, finding);
  if (finding->rule == BP_RULE_TRANSITIVE_WEAK_BARRIER)
    return transitive_message(engine, finding);
  if (finding->rule == BP_RULE_STORE_AFTER_PUBLICATION)
    return publication_message(engine, finding);
  if (finding->chain_length)
    return missing_link_message(engine, finding);
  if (finding->partner.function == BP_NO_FUNCTION)
    return wrong_kind_message(engine, finding);
  bp_text buffer = {0};
  if (finding->rule == BP_RULE_WEAK_BARRIER) {
    bp_text_append_barrier(&buffer, engine, finding->side.barrier);
    bp_text_append(&buffer, " is too weak to order ");
  } else if (bp_dependency(engine, finding->side.barrier)) {
    bp_text_append(&buffer, "only a dependency orders ");
  } else {
    bp_text_append(&buffer, "no barrier orders ");
  }
  append_side_order(&buffer, engine, finding);
  bp_text_append(&buffer, "; with '%s' this is ", function_of(engine, &finding->partner));
  append_scenario_name(&buffer, finding->scenario);
  bp_text_append(&buffer, ", which needs %s here", bp_finding_fix_barrier(finding));
  if (finding->other_pairings)
    bp_text_append(&buffer, " (and %u other pairing%s)", finding->other_pairings,
                   finding->other_pairings == 1 ? "" : "s");
  return buffer.text;
}

/* What one side of a pairing or a link of a cycle does. */
static char *side_note(const bp_engine *engine, const bp_side *partner) {
  bp_text buffer = {0};
  if (partner->barrier == BP_NO_EVENT) {
    bp_text_append(&buffer, "'%s' has no barrier between ", function_of(engine, partner));
    append_access(&buffer, engine, partner->first);
    bp_text_append(&buffer, " and ");
    append_access(&buffer, engine, partner->second);
  } else if (!partner->strength) {
    /* a compiler barrier, or release and acquire where a store meets a load */
    bp_text_append(&buffer, "'%s' has only ", function_of(engine, partner));
    bp_text_append_barrier(&buffer, engine, partner->barrier);
    append_callee(&buffer, engine, partner->barrier);
    bp_text_append(&buffer, " between ");
    append_access(&buffer, engine, partner->first);
    bp_text_append(&buffer, " and ");
    append_access(&buffer, engine, partner->second);
  } else {
    bp_text_append(&buffer, "'%s' orders ", function_of(engine, partner));
    append_access(&buffer, engine, partner->first);
    bp_text_append(&buffer, " before ");
    append_access(&buffer, engine, partner->second);
    /* a dependency: the side's own first access is what orders it */
    bool dependency = bp_dependency(engine, partner->barrier);
    bool named = bp_primitive_get(bp_event_get(engine, partner->barrier)->primitive) ||
                 bp_contract_barrier_name(engine, partner->barrier);
    if (dependency && !named) {
      /* a marked load no table row names (a volatile read, the kernel's
       * __READ_ONCE()) orders by its value alone, nothing else */
      bp_text_append(&buffer, ", which depends on the value it read");
    } else {
      bp_text_append(&buffer, dependency ? ", which depends on its value read with " : " with ");
      bp_text_append_barrier(&buffer, engine, partner->barrier);
    }
    append_callee(&buffer, engine, partner->barrier);
  }
  return buffer.text;
}

char *bp_finding_partner_note(const bp_engine *engine, const bp_finding *finding) {
  if (finding->partner.function == BP_NO_FUNCTION || finding->chain_length)
    return NULL;
  return side_note(engine, &finding->partner);
}

/* The scenario's story with {0}, {1}, {x} and {y} replaced by the user's
 * function and object names. */
char *bp_finding_scenario_note(const bp_engine *engine, const bp_finding *finding) {
  const bp_scenario *scenario = bp_scenario_get(finding->scenario);
  if (!scenario)
    return NULL;
  bp_text buffer = {0};
  append_scenario_name(&buffer, finding->scenario);
  bp_text_append(&buffer, " forbids %s: ", scenario->bug_on);
  const char *names[4] = {
      function_of(engine, &finding->side),
      function_of(engine, &finding->partner),
      bp_event_object_display(engine, finding->side.first),
      bp_event_object_display(engine, finding->side.second),
  };
  static const char *const placeholders[4] = {"{0}", "{1}", "{x}", "{y}"};
  for (const char *p = scenario->story; *p;) {
    int matched = -1;
    for (int i = 0; i < 4; i++) {
      if (strncmp(p, placeholders[i], 3) == 0)
        matched = i;
    }
    if (matched >= 0) {
      bp_text_append(&buffer, "'%s'", names[matched]);
      p += 3;
    } else {
      /* the words up to the next placeholder, in one piece */
      size_t run = 1 + strcspn(p + 1, "{");
      bp_text_append(&buffer, "%.*s", (int)run, p);
      p += run;
    }
  }
  return buffer.text;
}

static uint32_t where(const bp_side *side) {
  return side->barrier != BP_NO_EVENT ? side->barrier : side->second;
}

size_t bp_finding_notes(const bp_engine *engine, const bp_finding *finding,
                        bp_note notes[BP_NOTES_MAX]) {
  size_t count = 0;
  if (finding->chain_length) {
    for (uint32_t k = 1; k < finding->chain_length; k++)
      notes[count++] = (bp_note){where(&finding->chain[k]), side_note(engine, &finding->chain[k])};
    bp_text buffer = {0};
    if (finding->rule == BP_RULE_MISSING_BARRIER && bp_dependency(engine, finding->side.barrier))
      bp_text_append(&buffer,
                     "a dependency is not cumulative: what '%s' read of another function's "
                     "stores need not reach the rest of a cycle through %u functions before "
                     "what it orders by the dependency (the Linux-kernel memory model allows "
                     "it); a full barrier before it on the cycle, or one here, forbids it",
                     function_of(engine, &finding->side), finding->chain_length);
    else if (finding->rule == BP_RULE_MISSING_BARRIER)
      bp_text_append(&buffer,
                     "a cycle through %u functions needs a full barrier on every link; "
                     "'%s' has none between its two accesses",
                     finding->chain_length, function_of(engine, &finding->side));
    else
      bp_text_append(
          &buffer,
          "read and write barriers are not transitive: a cycle through %u functions needs a "
          "full barrier on every link (the article's rule, its three-CPU example; the "
          "Linux-kernel memory model is weaker here: --model=lkmm)",
          finding->chain_length);
    notes[count++] = (bp_note){finding->at, buffer.text};
    return count;
  }
  if (finding->rule == BP_RULE_BROKEN_CONTRACT && finding->side.barrier != BP_NO_EVENT) {
    bp_text buffer = {0};
    bp_text_append(&buffer, "'%s' has only ", function_of(engine, &finding->side));
    bp_text_append_barrier(&buffer, engine, finding->side.barrier);
    append_callee(&buffer, engine, finding->side.barrier);
    bp_text_append(&buffer, " on the way, which is not enough");
    notes[count++] = (bp_note){finding->side.barrier, buffer.text};
  }
  if (finding->race != BP_NO_EVENT) {
    const bp_event *race = bp_event_get(engine, finding->race);
    bp_text buffer = {0};
    bp_text_append(&buffer, "'%s' %s '%s' here", bp_function_name(engine, race->function),
                   race->kind == BP_ACCESS_STORE ? "stores" : "loads",
                   bp_event_object_display(engine, finding->race));
    notes[count++] = (bp_note){finding->race, buffer.text};
  }
  /* The side's first access, where it is in another helper's code than
   * the second: the barrier belongs between the two, and the warning's
   * place shows only the second (liburcu-qsbr's reader stores its counter
   * in one inlined helper and reads `waiting` in the next). */
  if (finding->rule == BP_RULE_MISSING_BARRIER && finding->side.first != BP_NO_EVENT &&
      finding->side.second == finding->at &&
      strcmp(bp_event_callee(engine, finding->side.first),
             bp_event_callee(engine, finding->side.second)) != 0) {
    const bp_event *first = bp_event_get(engine, finding->side.first);
    bp_text buffer = {0};
    bp_text_append(&buffer, "'%s' %s '%s' here, before the %s of '%s' with no barrier between",
                   function_of(engine, &finding->side),
                   first->kind == BP_ACCESS_STORE ? "stores" : "loads",
                   bp_event_object_display(engine, finding->side.first),
                   bp_event_get(engine, finding->at)->kind == BP_ACCESS_STORE ? "store" : "load",
                   bp_event_object_display(engine, finding->at));
    notes[count++] = (bp_note){finding->side.first, buffer.text};
  }
  /* a dependency-ordered side that a third function's store runs through */
  if (finding->rule == BP_RULE_MISSING_BARRIER && bp_dependency(engine, finding->side.barrier)) {
    bp_text buffer = {0};
    bp_text_append(&buffer,
                   "'%s' depends on the value of '%s' read here, but a dependency is not "
                   "cumulative: '%s' stored by another function and read here need not reach "
                   "'%s' before '%s' does (the Linux-kernel memory model allows it)",
                   function_of(engine, &finding->side), object_of(engine, finding->side.first),
                   object_of(engine, finding->side.first), function_of(engine, &finding->partner),
                   object_of(engine, finding->side.second));
    notes[count++] = (bp_note){finding->side.barrier, buffer.text};
  }
  char *partner = bp_finding_partner_note(engine, finding);
  if (partner)
    notes[count++] = (bp_note){where(&finding->partner), partner};
  char *scenario = bp_finding_scenario_note(engine, finding);
  if (scenario)
    notes[count++] = (bp_note){finding->at, scenario};
  return count;
}
