/* Moving positions through edits. An edit replaces the range [start, end)
 * of the text before it by a text of `new_lines` line breaks whose last line
 * is `last_line_units` long; a position after `end` moves by what that does
 * to its line and, on end's line, to its character. */
#define _POSIX_C_SOURCE 200809L

#include "tracked_edits.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t line, character;
} position;

typedef struct edit {
  int64_t version; /* the version it made */
  bool whole_text; /* no range: every position is touched */
  position start, end;
  uint32_t new_lines, last_line_units;
  struct edit *next;
} edit;

struct tracked_edits {
  edit *first, *last;
};

tracked_edits *tracked_edits_create(void) {
  tracked_edits *edits = calloc(1, sizeof *edits);
  if (!edits)
    abort();
  return edits;
}

void tracked_edits_free(tracked_edits *edits) {
  if (!edits)
    return;
  tracked_edits_forget_until(edits, INT64_MAX);
  free(edits);
}

static bool position_of(const json_t *json, position *at) {
  json_t *line = json_object_get(json, "line"), *character = json_object_get(json, "character");
  if (!json_is_integer(line) || !json_is_integer(character) || json_integer_value(line) < 0 ||
      json_integer_value(character) < 0)
    return false;
  at->line = (uint32_t)json_integer_value(line);
  at->character = (uint32_t)json_integer_value(character);
  return true;
}

static bool before(position left, position right) {
  return left.line < right.line || (left.line == right.line && left.character < right.character);
}

void tracked_edits_add(tracked_edits *edits, int64_t version, const json_t *change,
                       position_units units) {
  const char *text = json_string_value(json_object_get(change, "text"));
  if (!text)
    return; /* malformed: not applied either */
  edit *e = calloc(1, sizeof *e);
  if (!e)
    abort();
  e->version = version;
  json_t *range = json_object_get(change, "range");
  e->whole_text = !range || !position_of(json_object_get(range, "start"), &e->start) ||
                  !position_of(json_object_get(range, "end"), &e->end) || before(e->end, e->start);
  size_t length = json_string_length(json_object_get(change, "text"));
  const char *last_line = text;
  for (const char *newline;
       (newline = memchr(last_line, '\n', length - (size_t)(last_line - text)));
       last_line = newline + 1)
    e->new_lines++;
  e->last_line_units = text_units(last_line, length - (size_t)(last_line - text), units);
  if (edits->last)
    edits->last->next = e;
  else
    edits->first = e;
  edits->last = e;
}

void tracked_edits_forget_until(tracked_edits *edits, int64_t version) {
  while (edits->first && edits->first->version <= version) {
    edit *next = edits->first->next;
    free(edits->first);
    edits->first = next;
  }
  if (!edits->first)
    edits->last = NULL;
}

/* Moves the range [*start, *end] through one edit; false when the edit
 * touches it (overlaps it or borders on it: typing at the end of a word
 * changes the word). */
static bool move_range(const edit *e, position *start, position *end) {
  if (e->whole_text)
    return false;
  if (before(*end, e->start))
    return true;
  if (!before(e->end, *start))
    return false;
  position *ends[2] = {start, end};
  for (int i = 0; i < 2; i++) {
    position *p = ends[i];
    if (p->line == e->end.line)
      p->character = p->character - e->end.character + (e->new_lines ? 0 : e->start.character) +
                     e->last_line_units;
    p->line = p->line - (e->end.line - e->start.line) + e->new_lines;
  }
  return true;
}

/* Moves one JSON Range in place through the edits of (from, to]. */
static bool move_range_json(const tracked_edits *edits, json_t *range, int64_t from, int64_t to) {
  position start, end;
  if (!position_of(json_object_get(range, "start"), &start) ||
      !position_of(json_object_get(range, "end"), &end))
    return false;
  for (const edit *e = edits->first; e; e = e->next)
    if (e->version > from && e->version <= to && !move_range(e, &start, &end))
      return false;
  json_object_set_new(range, "start",
                      json_pack("{s:i, s:i}", "line", (json_int_t)start.line, "character",
                                (json_int_t)start.character));
  json_object_set_new(range, "end",
                      json_pack("{s:i, s:i}", "line", (json_int_t)end.line, "character",
                                (json_int_t)end.character));
  return true;
}

static bool move_related(const tracked_edits *edits, const char *uri, json_t *diagnostic,
                         int64_t from, int64_t to) {
  size_t i;
  json_t *related;
  json_array_foreach(json_object_get(diagnostic, "relatedInformation"), i, related) {
    json_t *location = json_object_get(related, "location");
    const char *where = json_string_value(json_object_get(location, "uri"));
    if (where && strcmp(where, uri) == 0 &&
        !move_range_json(edits, json_object_get(location, "range"), from, to))
      return false;
  }
  return true;
}

/* The action's edits of the document moved; its diagnostics replaced by
 * the moved one. */
static bool move_action(const tracked_edits *edits, const char *uri, json_t *action,
                        const json_t *diagnostic, int64_t from, int64_t to) {
  json_t *changes = json_object_get(json_object_get(action, "edit"), "changes");
  size_t i;
  json_t *text_edit;
  json_array_foreach(json_object_get(changes, uri), i, text_edit) {
    if (!move_range_json(edits, json_object_get(text_edit, "range"), from, to))
      return false;
  }
  if (json_object_get(action, "diagnostics"))
    json_object_set_new(action, "diagnostics", json_pack("[O]", diagnostic));
  return true;
}

json_t *tracked_edits_move(const tracked_edits *edits, const char *uri, const json_t *diagnostics,
                           const json_t *actions, int64_t from, int64_t to,
                           json_t **moved_actions) {
  json_t *moved = json_array();
  if (moved_actions)
    *moved_actions = json_array();
  size_t i;
  json_t *diagnostic;
  json_array_foreach(diagnostics, i, diagnostic) {
    json_t *copy = json_deep_copy(diagnostic);
    bool kept = move_range_json(edits, json_object_get(copy, "range"), from, to) &&
                move_related(edits, uri, copy, from, to);
    json_t *fixes = actions ? json_deep_copy(json_array_get(actions, i)) : json_array();
    size_t k;
    json_t *action;
    json_array_foreach(fixes, k, action) kept =
        kept && move_action(edits, uri, action, copy, from, to);
    if (kept) {
      json_array_append(moved, copy);
      if (moved_actions)
        json_array_append(*moved_actions, fixes);
    }
    json_decref(copy);
    json_decref(fixes);
  }
  return moved;
}
