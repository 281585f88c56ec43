/* The engine's annotations: read from a file's text (annotation_parse.c),
 * each with an event that gives it a place findings can point at. */
#include "annotation_parse.h"
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool same_place(const bp_engine *engine, const bp_annotation_record *record,
                       const bp_annotation *annotation) {
  return record->kind == annotation->kind && record->location.file == annotation->location.file &&
         record->location.line == annotation->location.line &&
         record->location.column == annotation->location.column &&
         strcmp(bp_interner_get(&engine->names, record->name),
                annotation->name ? annotation->name : "") == 0;
}

uint32_t bp_add_annotation(bp_engine *engine, const bp_annotation *annotation) {
  if (engine->building)
    return BP_NO_ANNOTATION; /* its event would split the function's events */
  for (uint32_t i = 0; i < engine->annotations.count; i++) {
    if (same_place(engine, bp_vec_at(&engine->annotations, i), annotation))
      return i;
  }
  bp_event *event = bp_vec_push(&engine->events);
  event->type = BP_EVENT_ANNOTATION;
  event->function = BP_NO_FUNCTION;
  event->location = annotation->location;
  event->primitive = BP_NO_PRIMITIVE;
  event->indentation = bp_interner_add(&engine->names, "");
  bp_annotation_record *record = bp_vec_push(&engine->annotations);
  record->kind = annotation->kind;
  record->macro = annotation->macro;
  record->location = annotation->location;
  record->first_line = annotation->first_line;
  record->last_line = annotation->last_line;
  record->next_code_line = annotation->next_code_line;
  record->name = bp_interner_add(&engine->names, annotation->name ? annotation->name : "");
  record->reason = bp_interner_add(&engine->names, annotation->reason ? annotation->reason : "");
  record->event = (uint32_t)engine->events.count - 1;
  return (uint32_t)engine->annotations.count - 1;
}

typedef struct {
  bp_engine *engine;
  uint32_t *barrier_lines; /* sorted lines of the file's barriers */
  size_t barrier_line_count;
  size_t added;
} scan;

static int compare_lines(const void *left, const void *right) {
  uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
  return a < b ? -1 : a > b;
}

static bool barrier_on(const scan *s, uint32_t first, uint32_t last) {
  size_t low = 0, high = s->barrier_line_count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (s->barrier_lines[middle] < first)
      low = middle + 1;
    else
      high = middle;
  }
  return low < s->barrier_line_count && s->barrier_lines[low] <= last;
}

/* A kernel-style comment says something only beside a barrier; the others
 * ("pairs with" in prose) are not kept. */
static bool worth_keeping(const scan *s, const bp_annotation *annotation) {
  if (annotation->kind != BP_ANNOTATION_COMMENT)
    return true;
  return barrier_on(s, annotation->first_line, annotation->last_line) ||
         (annotation->next_code_line &&
          barrier_on(s, annotation->next_code_line, annotation->next_code_line));
}

static void add_scanned(void *context, const bp_annotation *annotation) {
  scan *s = context;
  if (!worth_keeping(s, annotation))
    return;
  size_t before = s->engine->annotations.count;
  bp_add_annotation(s->engine, annotation);
  s->added += s->engine->annotations.count - before;
}

/* Whether `text` holds any of `words` (lower case, none empty) in any case. */
static bool holds_any(const char *text, size_t length, const char *const *words, size_t count) {
  bool first[256] = {false};
  for (size_t k = 0; k < count; k++) {
    first[(unsigned char)words[k][0]] = true;
    first[(unsigned char)toupper((unsigned char)words[k][0])] = true;
  }
  for (size_t at = 0; at < length; at++) {
    if (!first[(unsigned char)text[at]])
      continue;
    for (size_t k = 0; k < count; k++) {
      size_t size = strlen(words[k]);
      if (size <= length - at && strncasecmp(text + at, words[k], size) == 0)
        return true;
    }
  }
  return false;
}

/* Whether the parser can find anything worth keeping in `text`: what it
 * reads from a comment starts with one of these words (annotation_parse.c's
 * may_annotate), an annotation macro's name with the first, and a
 * kernel-style comment is kept only beside a barrier. Most files a unit
 * includes hold none, and reading one costs a pass over every byte. */
static bool may_hold_annotations(const char *text, size_t length, bool barriers) {
  static const char *const own[] = {"barrierpair"};
  static const char *const any[] = {"pair", "match", "see"}; /* "barrierpair" holds "pair" */
  return barriers ? holds_any(text, length, any, sizeof any / sizeof any[0])
                  : holds_any(text, length, own, 1);
}

size_t bp_scan_annotations(bp_engine *engine, uint32_t file, const char *text, size_t length) {
  if (engine->building || !text)
    return 0;
  scan s = {engine, calloc(engine->events.count + 1, sizeof(uint32_t)), 0, 0};
  if (!s.barrier_lines)
    abort();
  for (size_t id = 0; id < engine->events.count; id++) {
    const bp_event *event = bp_vec_at(&engine->events, id);
    if (event->type == BP_EVENT_BARRIER && event->location.file == file && event->location.line)
      s.barrier_lines[s.barrier_line_count++] = event->location.line;
  }
  if (!may_hold_annotations(text, length, s.barrier_line_count > 0)) {
    free(s.barrier_lines);
    return 0;
  }
  qsort(s.barrier_lines, s.barrier_line_count, sizeof(uint32_t), compare_lines);
  bp_parse_annotations(text, length, file, add_scanned, &s);
  free(s.barrier_lines);
  return s.added;
}

size_t bp_annotation_count(const bp_engine *engine) {
  return engine->annotations.count;
}

bool bp_annotation_get(const bp_engine *engine, uint32_t index, bp_annotation *annotation) {
  if (index >= engine->annotations.count)
    return false;
  const bp_annotation_record *record = bp_vec_at(&engine->annotations, index);
  *annotation = (bp_annotation){.kind = record->kind,
                                .macro = record->macro,
                                .location = record->location,
                                .first_line = record->first_line,
                                .last_line = record->last_line,
                                .next_code_line = record->next_code_line,
                                .name = bp_interner_get(&engine->names, record->name),
                                .reason = bp_interner_get(&engine->names, record->reason),
                                .event = record->event};
  return true;
}
