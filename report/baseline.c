/* Baselines: the findings a project has accepted for now, keyed by rule,
 * function and objects (no line numbers, so they survive edits above them),
 * with how many findings share each key.
 *
 *   {"barrierpair-baseline": 1, "findings": [
 *     {"rule": "missing-barrier", "function": "reader", "objects": ["ready", "message"],
 *      "count": 1}]}
 */
#include "bp_report.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

#define BASELINE_VERSION 1

typedef struct {
  char *key; /* rule NUL function NUL objects..., joined with '\x1f' */
  size_t count;
} entry;

struct bp_baseline {
  entry *entries;
  size_t count;
};

static char *key_text(const char *rule, const char *function, const char *const *objects,
                      size_t object_count) {
  size_t size = strlen(rule) + strlen(function) + 3;
  for (size_t i = 0; i < object_count; i++)
    size += strlen(objects[i]) + 1;
  char *text = malloc(size);
  if (!text)
    abort();
  int n = snprintf(text, size, "%s\x1f%s", rule, function);
  for (size_t i = 0; i < object_count; i++)
    n += snprintf(text + n, size - (size_t)n, "\x1f%s", objects[i]);
  return text;
}

static char *finding_key(const bp_engine *engine, const bp_finding *finding) {
  bp_finding_key key;
  bp_key_of(engine, finding, &key);
  return key_text(key.rule, key.function, key.objects, key.object_count);
}

static int compare_entries(const void *left, const void *right) {
  return strcmp(((const entry *)left)->key, ((const entry *)right)->key);
}

static entry *find(const bp_baseline *baseline, const char *key) {
  entry probe = {(char *)key, 0};
  return bsearch(&probe, baseline->entries, baseline->count, sizeof probe, compare_entries);
}

/* Sorts and merges equal keys. */
static void normalise(bp_baseline *baseline) {
  qsort(baseline->entries, baseline->count, sizeof *baseline->entries, compare_entries);
  size_t kept = 0;
  for (size_t i = 0; i < baseline->count; i++) {
    if (kept && strcmp(baseline->entries[kept - 1].key, baseline->entries[i].key) == 0) {
      baseline->entries[kept - 1].count += baseline->entries[i].count;
      free(baseline->entries[i].key);
    } else {
      baseline->entries[kept++] = baseline->entries[i];
    }
  }
  baseline->count = kept;
}

void bp_baseline_free(bp_baseline *baseline) {
  if (!baseline)
    return;
  for (size_t i = 0; i < baseline->count; i++)
    free(baseline->entries[i].key);
  free(baseline->entries);
  free(baseline);
}

bp_baseline *bp_baseline_read(const char *path, char *error, size_t error_size) {
  json_error_t problem;
  json_t *root = json_load_file(path, 0, &problem);
  if (!root) {
    if (problem.line > 0)
      snprintf(error, error_size, "%s:%d:%d: not a baseline: %s", path, problem.line,
               problem.column, problem.text);
    else
      snprintf(error, error_size, "%s: %s", path, problem.text);
    return NULL;
  }
  json_t *version = json_object_get(root, "barrierpair-baseline");
  json_t *findings = json_object_get(root, "findings");
  if (!json_is_integer(version) || !json_is_array(findings)) {
    snprintf(error, error_size, "%s: not a barrierpair baseline (write one with --write-baseline)",
             path);
    json_decref(root);
    return NULL;
  }
  if (json_integer_value(version) != BASELINE_VERSION) {
    snprintf(error, error_size, "%s: baseline version %lld; this barrierpair reads version %d",
             path, (long long)json_integer_value(version), BASELINE_VERSION);
    json_decref(root);
    return NULL;
  }
  bp_baseline *baseline = calloc(1, sizeof *baseline);
  if (!baseline)
    abort();
  size_t size = json_array_size(findings);
  baseline->entries = calloc(size ? size : 1, sizeof *baseline->entries);
  if (!baseline->entries)
    abort();
  for (size_t i = 0; i < size; i++) {
    json_t *item = json_array_get(findings, i);
    json_t *rule = json_object_get(item, "rule"), *function = json_object_get(item, "function");
    json_t *objects = json_object_get(item, "objects"), *count = json_object_get(item, "count");
    const char *names[2] = {"", ""};
    size_t object_count = json_array_size(objects);
    bool valid = json_is_string(rule) && json_is_string(function) && json_is_array(objects) &&
                 object_count <= 2 && (!count || json_is_integer(count));
    for (size_t o = 0; valid && o < object_count; o++) {
      json_t *name = json_array_get(objects, o);
      valid = json_is_string(name);
      if (valid)
        names[o] = json_string_value(name);
    }
    if (!valid || (count && json_integer_value(count) < 1)) {
      snprintf(error, error_size,
               "%s: finding %zu of the baseline needs \"rule\", \"function\", \"objects\" (at "
               "most two names) and a positive \"count\"",
               path, i + 1);
      json_decref(root);
      bp_baseline_free(baseline);
      return NULL;
    }
    baseline->entries[baseline->count].key =
        key_text(json_string_value(rule), json_string_value(function), names, object_count);
    baseline->entries[baseline->count++].count = count ? (size_t)json_integer_value(count) : 1;
  }
  json_decref(root);
  normalise(baseline);
  return baseline;
}

size_t bp_baseline_apply(const bp_baseline *baseline, const bp_engine *engine, bp_finding *findings,
                         size_t count) {
  size_t *left = calloc(baseline->count ? baseline->count : 1, sizeof *left);
  if (!left)
    abort();
  for (size_t i = 0; i < baseline->count; i++)
    left[i] = baseline->entries[i].count;
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    char *key = finding_key(engine, &findings[i]);
    entry *known = find(baseline, key);
    free(key);
    if (known && left[known - baseline->entries] > 0) {
      left[known - baseline->entries]--;
      continue;
    }
    findings[kept++] = findings[i];
  }
  free(left);
  return kept;
}

bool bp_baseline_write(const char *path, const bp_engine *engine, const bp_finding *findings,
                       size_t count, char *error, size_t error_size) {
  bp_baseline baseline = {calloc(count ? count : 1, sizeof(entry)), 0};
  if (!baseline.entries)
    abort();
  for (size_t i = 0; i < count; i++)
    baseline.entries[baseline.count++] = (entry){finding_key(engine, &findings[i]), 1};
  normalise(&baseline);

  json_t *list = json_array();
  for (size_t i = 0; i < baseline.count; i++) {
    /* Split the key back into its parts. */
    char *parts[4] = {NULL};
    size_t part_count = 0;
    for (char *at = baseline.entries[i].key; at && part_count < 4;) {
      parts[part_count++] = at;
      at = strchr(at, '\x1f');
      if (at)
        *at++ = '\0';
    }
    json_t *objects = json_array();
    for (size_t o = 2; o < part_count; o++)
      json_array_append_new(objects, json_string(parts[o]));
    json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:i}", "rule", parts[0], "function",
                                          parts[1], "objects", objects, "count",
                                          (json_int_t)baseline.entries[i].count));
    free(baseline.entries[i].key);
  }
  free(baseline.entries);
  json_t *root =
      json_pack("{s:i, s:o}", "barrierpair-baseline", BASELINE_VERSION, "findings", list);
  int status = json_dump_file(root, path, JSON_INDENT(2));
  json_decref(root);
  if (status != 0) {
    snprintf(error, error_size, "%s: cannot write the baseline", path);
    return false;
  }
  FILE *file = fopen(path, "a");
  if (file) {
    fputc('\n', file);
    fclose(file);
  }
  return true;
}
