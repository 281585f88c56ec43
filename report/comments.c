/* The kernel-style "pairs with" comments as the analysis checked them
 * (check --comments): what each names, whether the program defines it and
 * whether the analysis pairs the barrier with it. bench/kernel measures the
 * kernel's agreement with it. */
#include "bp_report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  bp_location location;
  char *function;
  bool defined, agrees;
  uint32_t partners;
  bp_comment_verdict verdict;
} comment_entry;

struct bp_comment_log {
  comment_entry *entries;
  size_t count, capacity;
};

bp_comment_log *bp_comment_log_create(void) {
  bp_comment_log *log = calloc(1, sizeof *log);
  if (!log)
    abort();
  return log;
}

static char *copy_string(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (!copy)
    abort();
  return memcpy(copy, text, length + 1);
}

void bp_comment_log_add(void *context, const bp_comment_check *check) {
  bp_comment_log *log = context;
  if (log->count == log->capacity) {
    log->capacity = log->capacity ? log->capacity * 2 : 64;
    log->entries = realloc(log->entries, log->capacity * sizeof *log->entries);
    if (!log->entries)
      abort();
  }
  log->entries[log->count++] =
      (comment_entry){check->location, copy_string(check->function), check->defined,
                      check->agrees,   check->partner_count,         check->verdict};
}

void bp_comment_log_free(bp_comment_log *log) {
  if (!log)
    return;
  for (size_t i = 0; i < log->count; i++)
    free(log->entries[i].function);
  free(log->entries);
  free(log);
}

typedef struct {
  char *path;
  const comment_entry *entry;
} placed_entry;

static int compare_placed(const void *left, const void *right) {
  const placed_entry *a = left, *b = right;
  int order = strcmp(a->path, b->path);
  if (order)
    return order;
  if (a->entry->location.line != b->entry->location.line)
    return a->entry->location.line < b->entry->location.line ? -1 : 1;
  if (a->entry->location.column != b->entry->location.column)
    return a->entry->location.column < b->entry->location.column ? -1 : 1;
  return strcmp(a->entry->function, b->entry->function);
}

bool bp_comment_log_write(const bp_comment_log *log, const bp_engine *engine, const char *base_dir,
                          const char *path) {
  bp_report report = {.engine = engine, .base_dir = base_dir};
  placed_entry *placed = calloc(log->count + 1, sizeof *placed);
  if (!placed)
    abort();
  for (size_t i = 0; i < log->count; i++)
    placed[i] =
        (placed_entry){bp_report_path(&report, log->entries[i].location.file), &log->entries[i]};
  qsort(placed, log->count, sizeof *placed, compare_placed);
  json_t *comments = json_array();
  for (size_t i = 0; i < log->count; i++) {
    const comment_entry *entry = placed[i].entry;
    json_array_append_new(comments,
                          json_pack("{s:s, s:i, s:i, s:s, s:b, s:b, s:i, s:s}", "file",
                                    placed[i].path, "line", (json_int_t)entry->location.line,
                                    "column", (json_int_t)entry->location.column, "function",
                                    entry->function, "defined", entry->defined, "agrees",
                                    entry->agrees, "partners", (json_int_t)entry->partners,
                                    "verdict", bp_comment_verdict_name(entry->verdict)));
    free(placed[i].path);
  }
  free(placed);
  json_t *root = json_pack("{s:o}", "comments", comments);
  bool written = json_dump_file(root, path, JSON_INDENT(1)) == 0;
  json_decref(root);
  return written;
}
