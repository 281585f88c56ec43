/* The words of stale-annotation findings: what the annotation says, as
 * written, and why it does not hold. */
#include "findings/findings.h"

/* The annotation as the user wrote it, in quotes. */
static void append_spelling(bp_text *buffer, const bp_annotation *annotation) {
  if (annotation->kind == BP_ANNOTATION_IGNORE)
    bp_text_append(buffer,
                   annotation->macro ? "'BARRIERPAIR_IGNORE(\"%s\", ...)'"
                                     : "'barrierpair: ignore %s'",
                   annotation->name);
  else if (annotation->macro)
    bp_text_append(buffer, "'BARRIERPAIR_PAIRS_WITH(%s)'", annotation->name);
  else
    bp_text_append(buffer, "'barrierpair: pairs with %s'", annotation->name);
}

static void append_rule_list(bp_text *buffer) {
  for (int rule = 0; rule < BP_RULE_COUNT; rule++)
    bp_text_append(buffer, "%s%s", rule ? ", " : "", bp_rule_name((bp_rule)rule));
}

static void append_barrier_claim(bp_text *buffer, const bp_engine *engine,
                                 const bp_finding *finding, const bp_annotation *annotation) {
  bp_text_append_barrier(buffer, engine, finding->side.barrier);
  bp_text_append(buffer, " in '%s' pairs with '%s'",
                 bp_function_name(engine, finding->side.function), annotation->name);
}

static void append_suppression_problem(bp_text *buffer, const bp_finding *finding,
                                       const bp_annotation *annotation) {
  switch (finding->problem) {
  case BP_PROBLEM_UNKNOWN_RULE:
    bp_text_append(buffer, "suppression ");
    append_spelling(buffer, annotation);
    bp_text_append(buffer, " names no rule; the rules are ");
    append_rule_list(buffer);
    break;
  case BP_PROBLEM_NO_REASON:
    bp_text_append(buffer, "suppression ");
    append_spelling(buffer, annotation);
    bp_text_append(buffer, " gives no reason; say why the finding is safe to ignore, as in %s",
                   annotation->macro ? "BARRIERPAIR_IGNORE(\"<rule>\", \"<reason>\")"
                                     : "'barrierpair: ignore <rule>: <reason>'");
    break;
  default:
    bp_text_append(buffer, "suppression ");
    append_spelling(buffer, annotation);
    bp_text_append(buffer, " silences nothing: no %s finding on line %u", annotation->name,
                   (unsigned)annotation->location.line);
    if (annotation->next_code_line)
      bp_text_append(buffer, " or line %u", (unsigned)annotation->next_code_line);
    break;
  }
}

char *bp_annotation_message(const bp_engine *engine, const bp_finding *finding) {
  bp_annotation annotation;
  bp_text buffer = {0};
  if (!bp_annotation_get(engine, finding->annotation, &annotation)) {
    bp_text_append(&buffer, "an annotation that is not in the program");
    return buffer.text;
  }
  if (annotation.kind == BP_ANNOTATION_IGNORE) {
    append_suppression_problem(&buffer, finding, &annotation);
    return buffer.text;
  }
  bool comment = annotation.kind == BP_ANNOTATION_COMMENT;
  switch (finding->problem) {
  case BP_PROBLEM_BESIDE_NO_BARRIER:
    append_spelling(&buffer, &annotation);
    bp_text_append(&buffer, " is beside no barrier: it applies to a barrier on its own line or on "
                            "the next line with code");
    break;
  case BP_PROBLEM_NO_SUCH_FUNCTION:
    append_spelling(&buffer, &annotation);
    bp_text_append(&buffer, *annotation.name ? " names no function of the analysed program"
                                             : " names no function");
    break;
  case BP_PROBLEM_PARTNER_HAS_NO_BARRIER:
    if (comment) {
      bp_text_append(&buffer, "the comment says ");
    } else {
      append_spelling(&buffer, &annotation);
      bp_text_append(&buffer, " declares that ");
    }
    append_barrier_claim(&buffer, engine, finding, &annotation);
    bp_text_append(&buffer, ", but '%s' has no barrier", annotation.name);
    break;
  default:
    bp_text_append(&buffer, "the comment says ");
    append_barrier_claim(&buffer, engine, finding, &annotation);
    bp_text_append(&buffer, ", but it pairs with '%s'",
                   bp_function_name(engine, finding->partner.function));
    if (finding->other_pairings)
      bp_text_append(&buffer, " and %u other function%s", finding->other_pairings,
                     finding->other_pairings == 1 ? "" : "s");
    bp_text_append(&buffer, ", not '%s'", annotation.name);
    break;
  }
  return buffer.text;
}
