/* Annotations in the analysis: declared pairings count as pairings,
 * suppressions drop findings, and every annotation is checked against what
 * the analysis sees (stale-annotation). */
#include "internal.h"

#include <stdlib.h>

bool bp_whole_program(const bp_analysis *analysis) {
  return !analysis->options->disabled[BP_RULE_UNPAIRED_BARRIER];
}

static const bp_annotation_record *annotation_at(const bp_engine *engine, uint32_t index) {
  return bp_vec_at(&engine->annotations, index);
}

/* ---- Events by line ---- */

typedef struct {
  uint32_t file, line, event;
} line_entry;

static int compare_entries(const void *left, const void *right) {
  const line_entry *a = left, *b = right;
  BP_COMPARE(a->file, b->file);
  BP_COMPARE(a->line, b->line);
  BP_COMPARE(a->event, b->event);
  return 0;
}

/* The accesses and barriers of the program, sorted by file and line. */
static bp_vec events_by_line(const bp_engine *engine) {
  bp_vec entries;
  bp_vec_init(&entries, sizeof(line_entry));
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ANNOTATION && event->location.line)
      *(line_entry *)bp_vec_push(&entries) =
          (line_entry){event->location.file, event->location.line, id};
  }
  if (entries.count)
    qsort(entries.items, entries.count, sizeof(line_entry), compare_entries);
  return entries;
}

/* The entries of `file` from line `first` to `last`: [*begin, end). */
static size_t entries_on(const bp_vec *entries, uint32_t file, uint32_t first, uint32_t last,
                         size_t *begin) {
  size_t low = 0, high = entries->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    const line_entry *e = bp_vec_at(entries, middle);
    if (e->file < file || (e->file == file && e->line < first))
      low = middle + 1;
    else
      high = middle;
  }
  *begin = low;
  size_t end = low;
  while (end < entries->count) {
    const line_entry *e = bp_vec_at(entries, end);
    if (e->file != file || e->line > last)
      break;
    end++;
  }
  return end;
}

static bool is_barrier(const bp_engine *engine, uint32_t event) {
  const bp_event *e = bp_event_get(engine, event);
  return e->type == BP_EVENT_BARRIER && e->strength;
}

/* The barriers an annotation is beside: on its own lines, else on the next
 * line with code. */
static void barriers_beside(const bp_engine *engine, const bp_vec *entries,
                            const bp_annotation_record *annotation, bp_vec *barriers) {
  barriers->count = 0;
  uint32_t ranges[2][2] = {{annotation->first_line, annotation->last_line},
                           {annotation->next_code_line, annotation->next_code_line}};
  for (int r = 0; r < 2 && !barriers->count && ranges[r][0]; r++) {
    size_t i;
    size_t end = entries_on(entries, annotation->location.file, ranges[r][0], ranges[r][1], &i);
    for (; i < end; i++) {
      uint32_t event = ((const line_entry *)bp_vec_at(entries, i))->event;
      if (is_barrier(engine, event))
        *(uint32_t *)bp_vec_push(barriers) = event;
    }
  }
}

static bool applies_to_line(const bp_annotation_record *annotation, uint32_t line) {
  return (line >= annotation->first_line && line <= annotation->last_line) ||
         line == annotation->next_code_line;
}

/* ---- Declared pairings ---- */

void bp_honour_declared_pairings(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count)
    return;
  bp_vec entries = events_by_line(engine), barriers;
  bp_vec_init(&barriers, sizeof(uint32_t));
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = annotation_at(engine, a);
    if (annotation->kind != BP_ANNOTATION_PAIRS_WITH)
      continue;
    barriers_beside(engine, &entries, annotation, &barriers);
    for (size_t i = 0; i < barriers.count; i++)
      bp_mark_paired(analysis, *(uint32_t *)bp_vec_at(&barriers, i));
  }
  bp_vec_free(&barriers);
  bp_vec_free(&entries);
}

/* ---- Checking pairings that annotations name ---- */

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
    if (is_barrier(engine, id) && event->function < engine->functions.count) {
      const bp_function *function = bp_vec_at(&engine->functions, event->function);
      c->by_name[function->name] = FUNCTION_WITH_BARRIER;
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
  bp_finding *finding = bp_add_candidate(c->analysis, BP_RULE_STALE_ANNOTATION);
  if (!finding)
    return;
  const bp_event *at = barrier == BP_NO_EVENT ? NULL : bp_event_get(c->engine, barrier);
  finding->at = annotation_at(c->engine, index)->event;
  finding->annotation = index;
  finding->problem = problem;
  finding->side = (bp_side){at ? at->function : BP_NO_FUNCTION, BP_NO_EVENT, BP_NO_EVENT, barrier,
                            at ? at->strength : 0};
  if (partner)
    finding->partner = *partner;
  finding->other_pairings = other_partners;
}

/* The functions whose sites mirror `barrier`'s: for X before it and Y after
 * it, a function that orders Y before X. One side of each, in `partners`. */
static void partners_of(const checker *c, uint32_t barrier, bp_vec *partners) {
  const bp_engine *engine = c->engine;
  uint32_t own = bp_event_get(engine, barrier)->function;
  bp_vec before, after;
  bp_vec_init(&before, sizeof(uint32_t));
  bp_vec_init(&after, sizeof(uint32_t));
  bp_accesses_around(engine, barrier, false, &before);
  bp_accesses_around(engine, barrier, true, &after);
  for (size_t i = 0; i < before.count; i++) {
    uint32_t x = bp_event_get(engine, *(uint32_t *)bp_vec_at(&before, i))->object;
    for (size_t k = 0; k < after.count; k++) {
      uint32_t y = bp_event_get(engine, *(uint32_t *)bp_vec_at(&after, k))->object;
      size_t j;
      size_t end = bp_orderings_between(c->analysis, y, x, &j);
      for (; j < end; j++) {
        const bp_ordering *o = bp_vec_at(&c->analysis->orderings, j);
        bool known = o->function == own;
        for (size_t p = 0; p < partners->count && !known; p++)
          known = ((bp_side *)bp_vec_at(partners, p))->function == o->function;
        if (!known)
          *(bp_side *)bp_vec_push(partners) =
              (bp_side){o->function, o->first, o->second, o->barrier, o->strength};
      }
    }
  }
  bp_vec_free(&before);
  bp_vec_free(&after);
}

static bool named(const checker *c, const bp_annotation_record *annotation, uint32_t function) {
  const bp_function *f = bp_vec_at(&c->engine->functions, function);
  return f->name ==
         bp_interner_find(&c->engine->names, bp_interner_get(&c->engine->names, annotation->name));
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
 * analysed code, is the barrier's own, or pairs with one of its barriers. */
static void check_comment(checker *c, uint32_t index, const bp_vec *barriers) {
  const bp_annotation_record *annotation = annotation_at(c->engine, index);
  if (!barriers->count)
    return;
  uint32_t barrier = *(uint32_t *)bp_vec_at(barriers, 0);
  int state = function_state(c, annotation->name);
  if (state == NO_FUNCTION_NAMED ||
      named(c, annotation, bp_event_get(c->engine, barrier)->function))
    return;
  if (state == FUNCTION_WITHOUT_BARRIER) {
    report(c, index, BP_PROBLEM_PARTNER_HAS_NO_BARRIER, barrier, NULL, 0);
    return;
  }
  bp_vec partners;
  bp_vec_init(&partners, sizeof(bp_side));
  for (size_t b = 0; b < barriers->count; b++)
    partners_of(c, *(uint32_t *)bp_vec_at(barriers, b), &partners);
  bool listed = false;
  for (size_t p = 0; p < partners.count && !listed; p++)
    listed = named(c, annotation, ((bp_side *)bp_vec_at(&partners, p))->function);
  if (partners.count && !listed)
    report(c, index, BP_PROBLEM_NOT_A_PARTNER, barrier, bp_vec_at(&partners, 0),
           (uint32_t)partners.count - 1);
  bp_vec_free(&partners);
}

void bp_check_annotations(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count || analysis->options->disabled[BP_RULE_STALE_ANNOTATION])
    return;
  checker c = {analysis, engine, events_by_line(engine), NULL};
  index_functions(&c);
  bp_vec barriers;
  bp_vec_init(&barriers, sizeof(uint32_t));
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = annotation_at(engine, a);
    if (annotation->kind == BP_ANNOTATION_IGNORE)
      continue;
    barriers_beside(engine, &c.entries, annotation, &barriers);
    if (annotation->kind == BP_ANNOTATION_PAIRS_WITH)
      check_declared(&c, a, &barriers);
    else
      check_comment(&c, a, &barriers);
  }
  bp_vec_free(&barriers);
  bp_vec_free(&c.entries);
  free(c.by_name);
}

/* ---- Suppressions ---- */

static int rule_of(const bp_engine *engine, const bp_annotation_record *annotation) {
  return bp_rule_find(bp_interner_get(&engine->names, annotation->name));
}

static bool suppresses(const bp_engine *engine, const bp_annotation_record *annotation,
                       const bp_finding *finding) {
  const bp_event *at = bp_event_get(engine, finding->at);
  return annotation->kind == BP_ANNOTATION_IGNORE &&
         rule_of(engine, annotation) == (int)finding->rule &&
         at->location.file == annotation->location.file &&
         applies_to_line(annotation, at->location.line);
}

/* Whether an access or a barrier stands where the suppression applies: a
 * suppression beside nothing is stale in any scope. */
static bool beside_code(const bp_vec *entries, const bp_annotation_record *annotation) {
  size_t begin;
  if (entries_on(entries, annotation->location.file, annotation->first_line, annotation->last_line,
                 &begin) > begin)
    return true;
  return annotation->next_code_line &&
         entries_on(entries, annotation->location.file, annotation->next_code_line,
                    annotation->next_code_line, &begin) > begin;
}

void bp_apply_suppressions(bp_analysis *analysis) {
  const bp_engine *engine = analysis->engine;
  if (!engine->annotations.count)
    return;
  bool *used = calloc(engine->annotations.count, sizeof *used);
  if (!used)
    abort();
  /* Candidates are few and suppressions fewer: every pair is cheap. */
  bp_vec *candidates = &analysis->candidates;
  size_t kept = 0;
  for (size_t i = 0; i < candidates->count; i++) {
    bp_finding *finding = bp_vec_at(candidates, i);
    bool dropped = false;
    for (uint32_t a = 0; a < engine->annotations.count; a++) {
      if (suppresses(engine, annotation_at(engine, a), finding))
        dropped = used[a] = true;
    }
    if (!dropped)
      *(bp_finding *)bp_vec_at(candidates, kept++) = *finding;
  }
  candidates->count = kept;

  checker c = {analysis, engine, events_by_line(engine), NULL};
  for (uint32_t a = 0; a < engine->annotations.count; a++) {
    const bp_annotation_record *annotation = annotation_at(engine, a);
    if (annotation->kind != BP_ANNOTATION_IGNORE)
      continue;
    int rule = rule_of(engine, annotation);
    bool stale = rule >= 0 && !used[a] && !analysis->options->disabled[rule] &&
                 (bp_whole_program(analysis) || !beside_code(&c.entries, annotation));
    if (rule < 0)
      report(&c, a, BP_PROBLEM_UNKNOWN_RULE, BP_NO_EVENT, NULL, 0);
    else if (stale)
      report(&c, a, BP_PROBLEM_SILENCES_NOTHING, BP_NO_EVENT, NULL, 0);
    else if (!*bp_interner_get(&engine->names, annotation->reason))
      report(&c, a, BP_PROBLEM_NO_REASON, BP_NO_EVENT, NULL, 0);
  }
  bp_vec_free(&c.entries);
  free(used);
}
