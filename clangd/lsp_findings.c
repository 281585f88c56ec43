/* From check's findings to LSP. Columns in the findings are clang's: 1-based
 * bytes; LSP counts characters in the negotiated unit from 0, so every
 * position is converted against the text it points into (the analysed
 * document, or another file as it is on disk). */
#define _POSIX_C_SOURCE 200809L

#include "lsp_findings.h"

#include "file_uri.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Text of the files a finding points into besides the document. */
typedef struct {
  const lsp_document_view *document;
  char *path, *text; /* one other file, read on demand */
  size_t length;
} text_source;

static void text_of(text_source *source, const char *path, const char **text, size_t *length) {
  if (strcmp(path, source->document->path) == 0) {
    *text = source->document->text;
    *length = source->document->length;
    return;
  }
  if (!source->path || strcmp(source->path, path) != 0) {
    free(source->path);
    free(source->text);
    source->path = strdup(path);
    source->text = NULL;
    source->length = 0;
    FILE *file = fopen(path, "rb");
    if (file) {
      char buffer[65536];
      size_t n;
      while ((n = fread(buffer, 1, sizeof buffer, file)) > 0) {
        source->text = realloc(source->text, source->length + n + 1);
        if (!source->text)
          abort();
        memcpy(source->text + source->length, buffer, n);
        source->length += n;
      }
      fclose(file);
    }
  }
  *text = source->text ? source->text : "";
  *length = source->length;
}

static json_t *position_json(text_source *source, const char *path, json_int_t line,
                             json_int_t column) {
  const char *text;
  size_t length;
  text_of(source, path, &text, &length);
  uint32_t lsp_line = line > 0 ? (uint32_t)(line - 1) : 0;
  uint32_t byte_column = column > 0 ? (uint32_t)(column - 1) : 0;
  return json_pack(
      "{s:i, s:i}", "line", (json_int_t)lsp_line, "character",
      (json_int_t)text_character(text, length, lsp_line, byte_column, source->document->units));
}

/* A point of a finding as a range over the identifier there (the access's
 * macro or the barrier's name), so editors underline a word, not nothing. */
static json_t *word_range(text_source *source, const char *path, json_int_t line,
                          json_int_t column) {
  const char *text;
  size_t length;
  text_of(source, path, &text, &length);
  uint32_t word = text_identifier_length(text, length, line > 0 ? (uint32_t)(line - 1) : 0,
                                         column > 0 ? (uint32_t)(column - 1) : 0);
  return json_pack("{s:o, s:o}", "start", position_json(source, path, line, column), "end",
                   position_json(source, path, line, column + (word ? word : 1)));
}

static json_t *location_json(text_source *source, const json_t *place) {
  const char *path = json_string_value(json_object_get(place, "file"));
  json_int_t line = json_integer_value(json_object_get(place, "line"));
  json_int_t column = json_integer_value(json_object_get(place, "column"));
  if (!path || line <= 0)
    return NULL;
  char *uri = strcmp(path, source->document->path) == 0 ? strdup(source->document->uri)
                                                        : file_uri_from_path(path);
  json_t *location =
      json_pack("{s:s, s:o}", "uri", uri, "range", word_range(source, path, line, column));
  free(uri);
  return location;
}

static bool same_place(const json_t *left, const json_t *right) {
  const char *left_file = json_string_value(json_object_get(left, "file"));
  const char *right_file = json_string_value(json_object_get(right, "file"));
  return left_file && right_file && strcmp(left_file, right_file) == 0 &&
         json_integer_value(json_object_get(left, "line")) ==
             json_integer_value(json_object_get(right, "line")) &&
         json_integer_value(json_object_get(left, "column")) ==
             json_integer_value(json_object_get(right, "column"));
}

/* The notes, then each partner site that no note already points at. */
static json_t *related_information(text_source *source, const json_t *finding) {
  json_t *related = json_array();
  const json_t *notes = json_object_get(finding, "notes");
  size_t i;
  json_t *note, *partner;
  json_array_foreach(notes, i, note) {
    json_t *location = location_json(source, note);
    const char *message = json_string_value(json_object_get(note, "message"));
    if (location && message)
      json_array_append_new(related,
                            json_pack("{s:o, s:s}", "location", location, "message", message));
    else
      json_decref(location);
  }
  json_array_foreach(json_object_get(finding, "partners"), i, partner) {
    size_t k;
    bool noted = false;
    json_array_foreach(notes, k, note) noted = noted || same_place(note, partner);
    json_t *location = noted ? NULL : location_json(source, partner);
    if (!location)
      continue;
    char message[256];
    snprintf(message, sizeof message, "the partner, '%s'",
             json_string_value(json_object_get(partner, "function"))
                 ? json_string_value(json_object_get(partner, "function"))
                 : "?");
    json_array_append_new(related,
                          json_pack("{s:o, s:s}", "location", location, "message", message));
  }
  return related;
}

/* "Insert 'cmm_smp_rmb();'", from the fix-it's text without its layout. */
static char *action_title(const char *text, bool insertion) {
  while (*text == ' ' || *text == '\n' || *text == '\t')
    text++;
  size_t length = strcspn(text, "\n");
  while (length && (text[length - 1] == ' ' || text[length - 1] == '\t'))
    length--;
  char *title = malloc(length + 32);
  if (!title)
    abort();
  if (length == 0)
    strcpy(title, "Remove the code");
  else
    sprintf(title, "%s '%.*s'", insertion ? "Insert" : "Replace with", (int)length, text);
  return title;
}

static json_t *fix_action(text_source *source, const json_t *fixit, const json_t *diagnostic) {
  const char *path = json_string_value(json_object_get(fixit, "file"));
  const char *text = json_string_value(json_object_get(fixit, "text"));
  json_int_t line = json_integer_value(json_object_get(fixit, "line"));
  json_int_t column = json_integer_value(json_object_get(fixit, "column"));
  json_int_t end_line = json_integer_value(json_object_get(fixit, "end_line"));
  json_int_t end_column = json_integer_value(json_object_get(fixit, "end_column"));
  if (!path || !text || line <= 0 || end_line <= 0)
    return NULL;
  json_t *range = json_pack("{s:o, s:o}", "start", position_json(source, path, line, column), "end",
                            position_json(source, path, end_line, end_column));
  char *uri = strcmp(path, source->document->path) == 0 ? strdup(source->document->uri)
                                                        : file_uri_from_path(path);
  char *title = action_title(text, line == end_line && column == end_column);
  json_t *action = json_pack("{s:s, s:s, s:[O], s:b, s:{s:{s:[{s:o, s:s}]}}}", "title", title,
                             "kind", "quickfix", "diagnostics", diagnostic, "isPreferred", 1,
                             "edit", "changes", uri, "range", range, "newText", text);
  free(uri);
  free(title);
  return action;
}

json_t *lsp_diagnostics_of(const json_t *findings, const lsp_document_view *document,
                           json_t **actions) {
  text_source source = {document, NULL, NULL, 0};
  json_t *diagnostics = json_array();
  *actions = json_array();
  size_t i;
  json_t *finding;
  json_array_foreach(findings, i, finding) {
    const char *path = json_string_value(json_object_get(finding, "file"));
    const char *rule = json_string_value(json_object_get(finding, "rule"));
    const char *message = json_string_value(json_object_get(finding, "message"));
    json_int_t line = json_integer_value(json_object_get(finding, "line"));
    json_int_t column = json_integer_value(json_object_get(finding, "column"));
    if (!path || !rule || !message || line <= 0 || strcmp(path, document->path) != 0)
      continue;
    json_t *diagnostic = json_pack("{s:o, s:i, s:s, s:s, s:s, s:o}", "range",
                                   word_range(&source, path, line, column), "severity", 2, "source",
                                   "barrierpair", "code", rule, "message", message,
                                   "relatedInformation", related_information(&source, finding));
    json_t *fixes = json_array();
    size_t k;
    json_t *fixit;
    json_array_foreach(json_object_get(finding, "fixits"), k, fixit) {
      json_t *action = fix_action(&source, fixit, diagnostic);
      if (action)
        json_array_append_new(fixes, action);
    }
    json_array_append_new(diagnostics, diagnostic);
    json_array_append_new(*actions, fixes);
  }
  free(source.path);
  free(source.text);
  return diagnostics;
}

static bool position_before(const json_t *left, const json_t *right) {
  json_int_t left_line = json_integer_value(json_object_get(left, "line"));
  json_int_t right_line = json_integer_value(json_object_get(right, "line"));
  if (left_line != right_line)
    return left_line < right_line;
  return json_integer_value(json_object_get(left, "character")) <
         json_integer_value(json_object_get(right, "character"));
}

bool lsp_ranges_touch(const json_t *left, const json_t *right) {
  /* Disjoint when one ends before the other starts. */
  return !position_before(json_object_get(left, "end"), json_object_get(right, "start")) &&
         !position_before(json_object_get(right, "end"), json_object_get(left, "start"));
}
