/* stale-annotation: every annotation checked against what the analysis
 * sees. A declared pairing beside no barrier, or naming a function that
 * does not exist or has no barrier; a kernel-style comment naming a
 * function that does not pair with the barrier. Suppressions that silence
 * nothing are found where they are applied (findings/suppressions.c). */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static const bp_annotation_record *annotation_at(const bp_engine *engine, uint32_t index) {
  return bp_vec_at(&engine->annotations, index);
}

enum { NO_FUNCTION_NAMED, FUNCTION_WITHOUT_BARRIER, FUNCTION_WITH_BARRIER };

typedef struct {
  bp_analysis *analysis;
  const bp_engine *engine;
  bp_vec entries;
  unsigned char *by_name; /* per names id: NO_FUNCTION_NAMED... */
} checker;

static void index_functions(checker *c) {
  const bp_engine *engine = c->engine;
  c->by_name = calloc(engine->names.strings.count + 1, 1);
  if (!c->by_name)
    abort();
  for (size_t f = 0; f < engine->functions.count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    if (c->by_name[function->name] == NO_FUNCTION_NAMED)
      c->by_name[function->name] = FUNCTION_WITHOUT_BARRIER;
  }
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    bool barrier = bp_is_barrier(engine, id);
    if (barrier && event->function < engine->functions.count) {
      const bp_function *function = bp_vec_at(&engine->functions, event->function);
      c->by_name[function->name] = FUNCTION_WITH_BARRIER;
    }
    /* A helper lowered into its callers is one of the program's functions
     * too, though not one of its own: a comment names it ("smp_rmb() in
     * svc_xprt_ready()"), and its barrier pairs as its callers' code. */
    if (*bp_interner_get(&engine->names, event->callee)) {
      if (barrier)
        c->by_name[event->callee] = FUNCTION_WITH_BARRIER;
      else if (c->by_name[event->callee] == NO_FUNCTION_NAMED)
        c->by_name[event->callee] = FUNCTION_WITHOUT_BARRIER;
    }
  }
}

static int function_state(const checker *c, uint32_t name) {
  const char *text = bp_interner_get(&c->engine->names, name);
  uint32_t id = *text ? bp_interner_find(&c->engine->names, text) : UINT32_MAX;
  return id == UINT32_MAX ? NO_FUNCTION_NAMED : c->by_name[id];
}

static void report(checker *c, uint32_t index, bp_annotation_problem problem, uint32_t barrier,
                   const bp_side *partner, uint32_t other_partners) {
  bp_add_annotation_candidate(c->analysis, index, problem, barrier, partner, other_partners);
}

/* A pair's side stands at `barrier`: its barrier is that event, or one
 * written at the same place (a macro's implicit barriers). */
static bool side_at(const bp_engine *engine, const bp_ordering *side, uint32_t barrier) {
  if (side->barrier == barrier)
    return true;
  if (side->barrier == BP_NO_EVENT || bp_dependency(engine, side->barrier))
    return false;
  return bp_same_location(bp_event_get(engine, side->barrier)->location,
                          bp_event_get(engine, barrier)->location);
}

/* The functions whose barriers pair with `barrier` (bp_pair_barriers's
 * pairs), one side of each, in `partners`. */
static void partners_of(const checker *c, uint32_t barrier, bp_vec *partners) {
  const bp_analysis *analysis = c->analysis;
  for (size_t i = 0; i < analysis->barrier_pairs.count; i++) {
    const bp_barrier_pair *pair = bp_vec_at(&analysis->barrier_pairs, i);
    const bp_ordering *sides[2] = {bp_vec_at(&analysis->orderings, pair->cpu0),
                                   bp_vec_at(&analysis->orderings, pair->cpu1)};
    for (int s = 0; s < 2; s++) {
      const bp_ordering *own = sides[s], *other = sides[1 - s];
      if (!side_at(c->engine, own, barrier) || other->function == own->function)
        continue;
      bool known = false;
      for (size_t p = 0; p < partners->count && !known; p++)
        known = ((bp_side *)bp_vec_at(partners, p))->function == other->function;
      if (!known)
        *(bp_side *)bp_vec_push(partners) = (bp_side){other->function, other->first, other->second,
                                                      other->barrier, other->strength};
    }
  }
}

static bool named(const checker *c, const bp_annotation_record *annotation, uint32_t function) {
  const bp_function *f = bp_vec_at(&c->engine->functions, function);
  return f->name ==
         bp_interner_find(&c->engine->names, bp_interner_get(&c->engine->names, annotation->name));
}

/* The comment names the partner's function, or the helper whose code its
 * barrier is (`smp_wmb() in commit_creds()`, lowered into its callers). */
static bool names_partner(const checker *c, const bp_annotation_record *annotation,
                          const bp_side *partner) {
  if (named(c, annotation, partner->function))
    return true;
  const char *callee =
      partner->barrier == BP_NO_EVENT ? "" : bp_event_callee(c->engine, partner->barrier);
  return callee[0] && strcmp(callee, bp_interner_get(&c->engine->names, annotation->name)) == 0;
}

const char *bp_comment_verdict_name(bp_comment_verdict verdict) {
  static const char *const names[BP_COMMENT_VERDICT_COUNT] = {
      "agrees",           "not-in-program",         "own-function",
      "no-barrier",       "barrier-orders-nothing", "partner-orders-nothing",
      "no-object-shared", "one-object-shared",      "pairing-refused"};
  return (unsigned)verdict < BP_COMMENT_VERDICT_COUNT ? names[verdict] : "";
}

/* An ordering of the function the comment names, or of the helper it
 * names as lowered into a caller. */
static bool named_side(const checker *c, const bp_annotation_record *annotation,
                       const bp_ordering *side) {
  return names_partner(
      c, annotation,
      &(bp_side){side->function, side->first, side->second, side->barrier, side->strength});
}

static bool ordering_at_any(const checker *c, const bp_ordering *side, const bp_vec *barriers) {
  for (size_t b = 0; b < barriers->count; b++)
    if (side_at(c->engine, side, *(uint32_t *)bp_vec_at(barriers, b)))
      return true;
  return false;
}

static bool shares_object(const bp_ordering *a, const bp_ordering *b) {
  return a->first_object == b->first_object || a->first_object == b->second_object ||
         a->second_object == b->first_object || a->second_object == b->second_object;
}

/* How far a comment's barrier and the function it names get through the
 * pairing, when the analysis does not pair them: whether each side orders
 * two accesses with a barrier, whether the sides' orderings share objects,
 * and whether two of them mirror each other (the pairing's checks refused
 * them). */
static bp_comment_verdict unpaired_verdict(const checker *c, const bp_annotation_record *annotation,
                                           const bp_vec *barriers) {
  const bp_vec *orderings = &c->analysis->orderings;
  bp_vec own, named_orderings;
  bp_vec_init(&own, sizeof(size_t));
  bp_vec_init(&named_orderings, sizeof(size_t));
  for (size_t i = 0; i < orderings->count; i++) {
    const bp_ordering *side = bp_vec_at(orderings, i);
    if (!side->strength)
      continue;
    if (ordering_at_any(c, side, barriers))
      *(size_t *)bp_vec_push(&own) = i;
    else if (named_side(c, annotation, side))
      *(size_t *)bp_vec_push(&named_orderings) = i;
  }
  bp_comment_verdict verdict = !own.count               ? BP_COMMENT_BARRIER_ORDERS_NOTHING
                               : !named_orderings.count ? BP_COMMENT_PARTNER_ORDERS_NOTHING
                                                        : BP_COMMENT_NO_OBJECT_SHARED;
  for (size_t i = 0; i < own.count && verdict != BP_COMMENT_PAIRING_REFUSED; i++) {
    const bp_ordering *side = bp_vec_at(orderings, *(size_t *)bp_vec_at(&own, i));
    for (size_t j = 0; j < named_orderings.count; j++) {
      const bp_ordering *other = bp_vec_at(orderings, *(size_t *)bp_vec_at(&named_orderings, j));
      if (other->first_object == side->second_object &&
          other->second_object == side->first_object) {
        verdict = BP_COMMENT_PAIRING_REFUSED;
        break;
      }
      if (shares_object(side, other))
        verdict = BP_COMMENT_ONE_OBJECT_SHARED;
    }
  }
  bp_vec_free(&own);
  bp_vec_free(&named_orderings);
  return verdict;
}

static void check_declared(checker *c, uint32_t index, const bp_vec *barriers) {
  const bp_annotation_record *annotation = annotation_at(c->engine, index);
  if (!barriers->count) {
    report(c, index, BP_PROBLEM_BESIDE_NO_BARRIER, BP_NO_EVENT, NULL, 0);
    return;
  }
  uint32_t barrier = *(uint32_t *)bp_vec_at(barriers, 0);
  int state = function_state(c, annotation->name);
  bool unnamed = !*bp_interner_get(&c->engine->names, annotation->name);
  if (unnamed || (state == NO_FUNCTION_NAMED && bp_whole_program(c->analysis)))
    report(c, index, BP_PROBLEM_NO_SUCH_FUNCTION, barrier, NULL, 0);
  else if (state == FUNCTION_WITHOUT_BARRIER)
    report(c, index, BP_PROBLEM_PARTNER_HAS_NO_BARRIER, barrier, NULL, 0);
}

/* A kernel-style comment: quiet when the function it names is not in the
 * analysed code, is the barrier's own, or pairs with one of its barriers.
 * Reported only with --beta: on the kernel the analysis finds the partner
 * a comment names for few of them (docs/precision.md), and a partner that
 * orders by a dependency, an atomic or a lock has no barrier it sees, so
 * most such findings were the analysis's gaps, not the comment's. */
static void check_comment(checker *c, uint32_t index, const bp_vec *barriers) {
  const bp_annotation_record *annotation = annotation_at(c->engine, index);
  const bp_options *options = c->analysis->options;
  if (!barriers->count || (!options->beta && !options->comment_handler))
    return;
  uint32_t barrier = *(uint32_t *)bp_vec_at(barriers, 0);
  int state = function_state(c, annotation->name);
  bool own = named(c, annotation, bp_event_get(c->engine, barrier)->function);
  if (!options->comment_handler &&
      (state == NO_FUNCTION_NAMED || state == FUNCTION_WITHOUT_BARRIER || own)) {
    if (state == FUNCTION_WITHOUT_BARRIER && !own)
      report(c, index, BP_PROBLEM_PARTNER_HAS_NO_BARRIER, barrier, NULL, 0);
    return;
  }
  bp_vec partners;
  bp_vec_init(&partners, sizeof(bp_side));
  for (size_t b = 0; b < barriers->count; b++)
    partners_of(c, *(uint32_t *)bp_vec_at(barriers, b), &partners);
  bool listed = false;
  for (size_t p = 0; p < partners.count && !listed; p++)
    listed = names_partner(c, annotation, bp_vec_at(&partners, p));
  if (options->comment_handler) {
    bp_comment_verdict verdict = listed                       ? BP_COMMENT_AGREES
                                 : state == NO_FUNCTION_NAMED ? BP_COMMENT_NOT_IN_PROGRAM
                                 : own                        ? BP_COMMENT_OWN_FUNCTION
                                 : state == FUNCTION_WITHOUT_BARRIER
                                     ? BP_COMMENT_PARTNER_HAS_NO_BARRIER
                                     : unpaired_verdict(c, annotation, barriers);
    bp_comment_check check = {
        annotation->location,       bp_interner_get(&c->engine->names, annotation->name),
        state != NO_FUNCTION_NAMED, listed,
        (uint32_t)partners.count,   verdict};
    options->comment_handler(options->comment_context, &check);
  }
  if (state == NO_FUNCTION_NAMED || own || !options->beta) {
    /* quiet */
  } else if (state == FUNCTION_WITHOUT_BARRIER) {
    report(c, index, BP_PROBLEM_PARTNER_HAS_NO_BARRIER, barrier, NULL, 0);
  } else if (partners.count && !listed) {
    report(c, index, BP_PROBLEM_NOT_A_PARTNER, barrier, bp_vec_at(&partners, 0),
           (uint32_t)partners.count - 1);
  }
  bp_vec_free(&partners);
}

void bp_check_stale_annotations(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count || analysis->options->disabled[BP_RULE_STALE_ANNOTATION])
    return;
  checker c = {analysis, engine, bp_events_by_line(engine), NULL};
  index_functions(&c);
  bp_vec barriers;
  bp_vec_init(&barriers, sizeof(uint32_t));
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = annotation_at(engine, a);
    if (annotation->kind == BP_ANNOTATION_IGNORE)
      continue;
    bp_barriers_beside(engine, &c.entries, annotation, &barriers);
    if (annotation->kind == BP_ANNOTATION_PAIRS_WITH)
      check_declared(&c, a, &barriers);
    else
      check_comment(&c, a, &barriers);
  }
  bp_vec_free(&barriers);
  bp_vec_free(&c.entries);
  free(c.by_name);
}
