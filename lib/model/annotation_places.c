/* Where annotations stand: the program's accesses and barriers by line,
 * and the barriers beside an annotation. */
#include "internal.h"

#include <stdlib.h>

static int compare_entries(const void *left, const void *right) {
  const bp_line_entry *a = left, *b = right;
  BP_COMPARE(a->file, b->file);
  BP_COMPARE(a->line, b->line);
  BP_COMPARE(a->event, b->event);
  return 0;
}

bp_vec bp_events_by_line(const bp_engine *engine) {
  bp_vec entries;
  bp_vec_init(&entries, sizeof(bp_line_entry));
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    if (event->type != BP_EVENT_ANNOTATION && event->location.line)
      *(bp_line_entry *)bp_vec_push(&entries) =
          (bp_line_entry){event->location.file, event->location.line, id};
  }
  if (entries.count)
    qsort(entries.items, entries.count, sizeof(bp_line_entry), compare_entries);
  return entries;
}

size_t bp_entries_on_lines(const bp_vec *entries, uint32_t file, uint32_t first, uint32_t last,
                           size_t *begin) {
  size_t low = 0, high = entries->count;
  while (low < high) {
    size_t middle = (low + high) / 2;
    const bp_line_entry *e = bp_vec_at(entries, middle);
    if (e->file < file || (e->file == file && e->line < first))
      low = middle + 1;
    else
      high = middle;
  }
  *begin = low;
  size_t end = low;
  while (end < entries->count) {
    const bp_line_entry *e = bp_vec_at(entries, end);
    if (e->file != file || e->line > last)
      break;
    end++;
  }
  return end;
}

bool bp_is_barrier(const bp_engine *engine, uint32_t event) {
  const bp_event *e = bp_event_get(engine, event);
  return e->type == BP_EVENT_BARRIER && e->strength;
}

void bp_barriers_beside(const bp_engine *engine, const bp_vec *entries,
                        const bp_annotation_record *annotation, bp_vec *barriers) {
  barriers->count = 0;
  uint32_t ranges[2][2] = {{annotation->first_line, annotation->last_line},
                           {annotation->next_code_line, annotation->next_code_line}};
  for (int r = 0; r < 2 && !barriers->count && ranges[r][0]; r++) {
    size_t i;
    size_t end =
        bp_entries_on_lines(entries, annotation->location.file, ranges[r][0], ranges[r][1], &i);
    for (; i < end; i++) {
      uint32_t event = ((const bp_line_entry *)bp_vec_at(entries, i))->event;
      if (bp_is_barrier(engine, event))
        *(uint32_t *)bp_vec_push(barriers) = event;
    }
  }
}

bool bp_annotation_applies_to_line(const bp_annotation_record *annotation, uint32_t line) {
  return (line >= annotation->first_line && line <= annotation->last_line) ||
         line == annotation->next_code_line;
}
