/* Baselines: the findings a project has accepted for now, keyed by what the
 * finding is about, with how many findings share each key. A key is built
 * from the finding's own code: its rule, the file and function it is in,
 * and its own accesses (kind and object, in program order), barrier or
 * annotation. No line numbers and no partner, so it survives edits above it
 * and changes elsewhere in the program (a partner renamed, another pairing
 * found first).
 *
 *   {"barrierpair-baseline": 2, "findings": [
 *     {"rule": "missing-barrier", "file": "src/reader.c", "function": "reader",
 *      "events": ["load ready", "load message"], "count": 1}]}
 *
 * Version 1 files (rule, function, "objects") are still read and matched by
 * the keys of that version. */
#define _POSIX_C_SOURCE 200809L

#include "bp_report.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

#define BASELINE_VERSION 2

typedef struct {
  char *key; /* see key_of_fields and key_v1 */
  size_t count;
} entry;

struct bp_baseline {
  entry *entries;
  size_t count;
};

/* ---- Keys ---- */

/* Version 2: the key's fields as compact JSON with sorted members. */
static char *key_of_fields(const json_t *fields) {
  char *text = json_dumps(fields, JSON_COMPACT | JSON_SORT_KEYS);
  if (!text)
    abort();
  return text;
}

/* "load ready", "store ring.head", "barrier cmm_smp_wmb"; false when the
 * event says nothing a key can use. */
static bool describe(const bp_engine *engine, uint32_t event, char *text, size_t size) {
  const bp_event *e = event == BP_NO_EVENT ? NULL : bp_event_get(engine, event);
  if (!e)
    return false;
  if (e->type == BP_EVENT_ACCESS) {
    snprintf(text, size, "%s %s", e->kind == BP_ACCESS_STORE ? "store" : "load",
             bp_object_display(engine, e->object));
    return true;
  }
  if (e->type == BP_EVENT_BARRIER) {
    const bp_primitive *primitive =
        e->primitive != BP_NO_PRIMITIVE ? bp_primitive_get(e->primitive) : NULL;
    snprintf(text, size, "barrier %s", primitive ? primitive->name : "");
    return true;
  }
  return false;
}

static json_t *key_fields(const bp_engine *engine, const char *base_dir,
                          const bp_finding *finding) {
  const bp_event *at = bp_event_get(engine, finding->at);
  bp_report paths = {engine, NULL, 0, base_dir, NULL, NULL, 0};
  char *file = at && at->location.line ? bp_report_path(&paths, at->location.file) : NULL;
  uint32_t function = finding->side.function != BP_NO_FUNCTION ? finding->side.function
                      : at                                     ? at->function
                                                               : BP_NO_FUNCTION;
  json_t *events = json_array();
  uint32_t own[3] = {BP_NO_EVENT, BP_NO_EVENT, finding->at};
  /* A marking finding is about its one access; the others about the two
   * accesses of their side. */
  if (finding->rule != BP_RULE_MISSING_ACCESS_ONCE) {
    own[0] = finding->side.first;
    own[1] = finding->side.second;
  }
  for (size_t i = 0; i < 3; i++) {
    char text[512];
    if (i == 2 && (own[2] == own[0] || own[2] == own[1]))
      continue;
    if (describe(engine, own[i], text, sizeof text))
      json_array_append_new(events, json_string(text));
  }
  bp_annotation annotation;
  if (finding->rule == BP_RULE_STALE_ANNOTATION &&
      bp_annotation_get(engine, finding->annotation, &annotation)) {
    char text[512];
    snprintf(text, sizeof text, "annotation %s", annotation.name ? annotation.name : "");
    json_array_append_new(events, json_string(text));
  }
  json_t *fields = json_pack("{s:s, s:s, s:s, s:o}", "rule", bp_rule_name(finding->rule), "file",
                             file ? file : "", "function",
                             function != BP_NO_FUNCTION ? bp_function_name(engine, function) : "",
                             "events", events);
  free(file);
  return fields;
}

char *bp_finding_stable_key(const bp_engine *engine, const char *base_dir,
                            const bp_finding *finding) {
  json_t *fields = key_fields(engine, base_dir, finding);
  char *text = key_of_fields(fields);
  json_decref(fields);
  return text;
}

/* Version 1: rule, function and up to two objects, joined with '\x1f'. */
static char *key_v1(const char *rule, const char *function, const char *const *objects,
                    size_t object_count) {
  size_t size = strlen(rule) + strlen(function) + 5;
  for (size_t i = 0; i < object_count; i++)
    size += strlen(objects[i]) + 1;
  char *text = malloc(size);
  if (!text)
    abort();
  int n = snprintf(text, size, "1\x1f%s\x1f%s", rule, function);
  for (size_t i = 0; i < object_count; i++)
    n += snprintf(text + n, size - (size_t)n, "\x1f%s", objects[i]);
  return text;
}

static char *finding_key_v1(const bp_engine *engine, const bp_finding *finding) {
  bp_finding_key key;
  bp_key_of(engine, finding, &key);
  return key_v1(key.rule, key.function, key.objects, key.object_count);
}

/* ---- The baseline ---- */

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

/* The key of one finding of a version 1 file, or NULL when malformed. */
static char *read_v1(const json_t *item) {
  json_t *rule = json_object_get(item, "rule"), *function = json_object_get(item, "function");
  json_t *objects = json_object_get(item, "objects");
  const char *names[2] = {"", ""};
  size_t object_count = json_array_size(objects);
  if (!json_is_string(rule) || !json_is_string(function) || !json_is_array(objects) ||
      object_count > 2)
    return NULL;
  for (size_t o = 0; o < object_count; o++) {
    if (!json_is_string(json_array_get(objects, o)))
      return NULL;
    names[o] = json_string_value(json_array_get(objects, o));
  }
  return key_v1(json_string_value(rule), json_string_value(function), names, object_count);
}

static char *read_v2(const json_t *item) {
  json_t *events = json_object_get(item, "events");
  if (!json_is_string(json_object_get(item, "rule")) ||
      !json_is_string(json_object_get(item, "file")) ||
      !json_is_string(json_object_get(item, "function")) || !json_is_array(events))
    return NULL;
  size_t i;
  json_t *event;
  json_array_foreach(events, i, event) {
    if (!json_is_string(event))
      return NULL;
  }
  json_t *fields = json_pack("{s:O, s:O, s:O, s:O}", "rule", json_object_get(item, "rule"), "file",
                             json_object_get(item, "file"), "function",
                             json_object_get(item, "function"), "events", events);
  char *key = key_of_fields(fields);
  json_decref(fields);
  return key;
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
  json_int_t number = json_integer_value(version);
  if (number != 1 && number != BASELINE_VERSION) {
    snprintf(error, error_size,
             "%s: baseline version %lld; this barrierpair reads versions 1 and %d", path,
             (long long)number, BASELINE_VERSION);
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
    json_t *count = json_object_get(item, "count");
    char *key = number == 1 ? read_v1(item) : read_v2(item);
    if (!key || (count && (!json_is_integer(count) || json_integer_value(count) < 1))) {
      if (number == 1)
        snprintf(error, error_size,
                 "%s: finding %zu of the baseline needs \"rule\", \"function\", \"objects\" (at "
                 "most two names) and a positive \"count\"",
                 path, i + 1);
      else
        snprintf(error, error_size,
                 "%s: finding %zu of the baseline needs \"rule\", \"file\", \"function\", "
                 "\"events\" (a list of strings) and a positive \"count\"",
                 path, i + 1);
      free(key);
      json_decref(root);
      bp_baseline_free(baseline);
      return NULL;
    }
    baseline->entries[baseline->count].key = key;
    baseline->entries[baseline->count++].count = count ? (size_t)json_integer_value(count) : 1;
  }
  json_decref(root);
  normalise(baseline);
  return baseline;
}

size_t bp_baseline_apply(const bp_baseline *baseline, const bp_engine *engine, const char *base_dir,
                         bp_finding *findings, size_t count) {
  size_t *left = calloc(baseline->count ? baseline->count : 1, sizeof *left);
  if (!left)
    abort();
  for (size_t i = 0; i < baseline->count; i++)
    left[i] = baseline->entries[i].count;
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    char *keys[2] = {bp_finding_stable_key(engine, base_dir, &findings[i]),
                     finding_key_v1(engine, &findings[i])};
    bool known = false;
    for (size_t k = 0; k < 2 && !known; k++) {
      entry *match = find(baseline, keys[k]);
      if (match && left[match - baseline->entries] > 0) {
        left[match - baseline->entries]--;
        known = true;
      }
    }
    free(keys[0]);
    free(keys[1]);
    if (!known)
      findings[kept++] = findings[i];
  }
  free(left);
  return kept;
}

bool bp_baseline_write(const char *path, const bp_engine *engine, const char *base_dir,
                       const bp_finding *findings, size_t count, char *error, size_t error_size) {
  bp_baseline baseline = {calloc(count ? count : 1, sizeof(entry)), 0};
  if (!baseline.entries)
    abort();
  for (size_t i = 0; i < count; i++)
    baseline.entries[baseline.count++] =
        (entry){bp_finding_stable_key(engine, base_dir, &findings[i]), 1};
  normalise(&baseline);

  json_t *list = json_array();
  for (size_t i = 0; i < baseline.count; i++) {
    json_t *fields = json_loads(baseline.entries[i].key, 0, NULL);
    json_array_append_new(list, json_pack("{s:O, s:O, s:O, s:O, s:i}", "rule",
                                          json_object_get(fields, "rule"), "file",
                                          json_object_get(fields, "file"), "function",
                                          json_object_get(fields, "function"), "events",
                                          json_object_get(fields, "events"), "count",
                                          (json_int_t)baseline.entries[i].count));
    json_decref(fields);
    free(baseline.entries[i].key);
  }
  free(baseline.entries);
  json_t *root =
      json_pack("{s:i, s:o}", "barrierpair-baseline", BASELINE_VERSION, "findings", list);
  int status = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
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
