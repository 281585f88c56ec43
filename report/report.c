/* Findings as text, JSON and SARIF; see report.h. JSON and SARIF are built
 * with jansson, which does the escaping. */
#define _POSIX_C_SOURCE 200809L

#include "bp_report.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

#ifndef BARRIERPAIR_VERSION
#define BARRIERPAIR_VERSION "0"
#endif

static char *copy_string(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (!copy)
    abort();
  memcpy(copy, text, length);
  return copy;
}

static const char *path_below(const char *base, const char *path) {
  size_t length = base ? strlen(base) : 0;
  if (length == 0 || strncmp(path, base, length) != 0)
    return NULL;
  if (base[length - 1] == '/')
    return path + length;
  return path[length] == '/' ? path + length + 1 : NULL;
}

static char *path_for(const bp_engine *engine, const char *base, uint32_t file) {
  const char *path = bp_file_path(engine, file);
  const char *relative = path_below(base, path);
  return copy_string(relative && *relative ? relative : path);
}

char *bp_report_path(const bp_report *report, uint32_t file) {
  return path_for(report->engine, report->base_dir, file);
}

/* The event where a side of a pairing is: its barrier, else its second
 * access (as the engine's notes point). */
static uint32_t site_of(const bp_side *side) {
  return side->barrier != BP_NO_EVENT ? side->barrier : side->second;
}

/* ---- Sorting ---- */

static const bp_engine *sort_engine;
static const char *sort_base;

static int compare_findings(const void *left, const void *right) {
  const bp_finding *a = left, *b = right;
  const bp_location *la = &bp_event_get(sort_engine, a->at)->location;
  const bp_location *lb = &bp_event_get(sort_engine, b->at)->location;
  char *pa = path_for(sort_engine, sort_base, la->file);
  char *pb = path_for(sort_engine, sort_base, lb->file);
  int order = strcmp(pa, pb);
  free(pa);
  free(pb);
  if (order)
    return order;
  if (la->line != lb->line)
    return la->line < lb->line ? -1 : 1;
  if (la->column != lb->column)
    return la->column < lb->column ? -1 : 1;
  order = strcmp(bp_rule_name(a->rule), bp_rule_name(b->rule));
  if (order)
    return order;
  char *ma = bp_finding_message(sort_engine, a), *mb = bp_finding_message(sort_engine, b);
  order = strcmp(ma, mb);
  free(ma);
  free(mb);
  return order;
}

void bp_report_sort(const bp_engine *engine, const char *base_dir, bp_finding *findings,
                    size_t count) {
  sort_engine = engine;
  sort_base = base_dir;
  qsort(findings, count, sizeof *findings, compare_findings);
  sort_engine = NULL;
  sort_base = NULL;
}

/* ---- Text ---- */

/* Line `line` of `path` (without its newline), or NULL. */
static char *source_line(const char *path, uint32_t line) {
  FILE *file = fopen(path, "r");
  if (!file)
    return NULL;
  char *text = NULL;
  size_t capacity = 0;
  ssize_t length = -1;
  for (uint32_t n = 0; n < line; n++) {
    length = getline(&text, &capacity, file);
    if (length < 0)
      break;
  }
  fclose(file);
  if (length < 0) {
    free(text);
    return NULL;
  }
  while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r'))
    text[--length] = '\0';
  return text;
}

/* The source line and a caret under `column`, as clang prints them. */
static void print_snippet(FILE *out, const bp_report *report, bp_location location) {
  const char *path = bp_file_path(report->engine, location.file);
  for (size_t i = 0; i < report->overlay_count; i++)
    if (strcmp(path, report->overlaid_files[i]) == 0)
      path = report->contents_files[i];
  char *line = source_line(path, location.line);
  if (!line)
    return;
  int width = snprintf(NULL, 0, "%u", (unsigned)location.line);
  width = width < 4 ? 4 : width;
  fprintf(out, " %*u | ", width, (unsigned)location.line);
  size_t display = 0, caret = 0;
  for (size_t i = 0; line[i]; i++) {
    if (i + 1 == location.column)
      caret = display;
    if (line[i] == '\t') {
      do
        fputc(' ', out);
      while (++display % 8);
    } else {
      fputc(line[i], out);
      if (((unsigned char)line[i] & 0xc0) != 0x80)
        display++;
    }
  }
  if (location.column > strlen(line))
    caret = display;
  fprintf(out, "\n %*s | %*s^\n", width, "", (int)caret, "");
  free(line);
}

static void print_diagnostic(FILE *out, const bp_report *report, uint32_t event, const char *kind,
                             const char *text, const char *suffix) {
  const bp_location *location = &bp_event_get(report->engine, event)->location;
  if (location->line == 0) {
    fprintf(out, "barrierpair: %s: %s%s\n", kind, text, suffix);
    return;
  }
  char *path = bp_report_path(report, location->file);
  fprintf(out, "%s:%u:%u: %s: %s%s\n", path, (unsigned)location->line, (unsigned)location->column,
          kind, text, suffix);
  free(path);
  print_snippet(out, report, *location);
}

bool bp_report_text(FILE *out, const bp_report *report) {
  for (size_t i = 0; i < report->count; i++) {
    const bp_finding *finding = &report->findings[i];
    char *message = bp_finding_message(report->engine, finding);
    size_t suffix_size = strlen(bp_rule_name(finding->rule)) + 32;
    char *suffix = malloc(suffix_size);
    if (!suffix)
      abort();
    snprintf(suffix, suffix_size, " [barrierpair-%s]", bp_rule_name(finding->rule));
    print_diagnostic(out, report, finding->at, "warning", message, suffix);
    free(suffix);
    free(message);
    bp_note notes[BP_NOTES_MAX];
    size_t count = bp_finding_notes(report->engine, finding, notes);
    for (size_t n = 0; n < count; n++) {
      print_diagnostic(out, report, notes[n].event, "note", notes[n].text, "");
      free(notes[n].text);
    }
  }
  if (report->count) {
    fprintf(out, "%zu warning%s generated.\n", report->count, report->count == 1 ? "" : "s");
  }
  fflush(out);
  return !ferror(out);
}

/* ---- The parts of a finding JSON and SARIF share ---- */

void bp_key_of(const bp_engine *engine, const bp_finding *finding, bp_finding_key *key) {
  key->rule = bp_rule_name(finding->rule);
  key->function = bp_function_name(engine, finding->side.function);
  key->object_count = 0;
  uint32_t events[3] = {finding->side.first, finding->side.second, finding->at};
  for (size_t i = 0; i < 3 && key->object_count < 2; i++) {
    if (events[i] == BP_NO_EVENT || (i == 2 && key->object_count))
      continue;
    const bp_event *event = bp_event_get(engine, events[i]);
    if (!event || event->type != BP_EVENT_ACCESS)
      continue;
    key->objects[key->object_count++] = bp_object_display(engine, event->object);
  }
}

static json_t *key_json(const bp_engine *engine, const bp_finding *finding) {
  bp_finding_key key;
  bp_key_of(engine, finding, &key);
  json_t *objects = json_array();
  for (size_t i = 0; i < key.object_count; i++)
    json_array_append_new(objects, json_string(key.objects[i]));
  return json_pack("{s:s, s:s, s:o}", "rule", key.rule, "function", key.function, "objects",
                   objects);
}

/* The partner sites: the other side of a pair, or the other links of a
 * cycle. */
#ifndef BP_CHAIN_MAX
#define PARTNERS_MAX 1
#else
#define PARTNERS_MAX BP_CHAIN_MAX
#endif

static size_t partners_of(const bp_finding *finding, const bp_side **sides) {
  size_t count = 0;
#ifdef BP_CHAIN_MAX
  if (finding->chain_length) {
    for (uint32_t k = 1; k < finding->chain_length && count < BP_CHAIN_MAX; k++)
      sides[count++] = &finding->chain[k];
    return count;
  }
#endif
  if (finding->partner.function != BP_NO_FUNCTION) {
    sides[count++] = &finding->partner;
  }
  return count;
}

static json_t *place_json(const bp_report *report, bp_location location) {
  if (location.line == 0)
    return json_pack("{s:n, s:n, s:n}", "file", "line", "column");
  char *path = bp_report_path(report, location.file);
  json_t *place = json_pack("{s:s, s:i, s:i}", "file", path, "line", (json_int_t)location.line,
                            "column", (json_int_t)location.column);
  free(path);
  return place;
}

static void add_place(json_t *object, const bp_report *report, bp_location location) {
  json_t *place = place_json(report, location);
  json_object_update(object, place);
  json_decref(place);
}

/* ---- JSON ---- */

static json_t *finding_json(const bp_report *report, const bp_finding *finding) {
  const bp_engine *engine = report->engine;
  json_t *object = json_object();
  json_object_set_new(object, "rule", json_string(bp_rule_name(finding->rule)));
  json_object_set_new(object, "severity", json_string("warning"));
  add_place(object, report, bp_event_get(engine, finding->at)->location);
  json_object_set_new(object, "function",
                      json_string(bp_function_name(engine, finding->side.function)));
  char *message = bp_finding_message(engine, finding);
  json_object_set_new(object, "message", json_string(message));
  free(message);
  json_object_set_new(object, "scenario",
                      finding->scenario >= 0 ? json_integer(finding->scenario) : json_null());

  json_t *partners = json_array();
  const bp_side *sides[PARTNERS_MAX];
  size_t count = partners_of(finding, sides);
  for (size_t i = 0; i < count; i++) {
    json_t *partner = json_object();
    json_object_set_new(partner, "function",
                        json_string(bp_function_name(engine, sides[i]->function)));
    add_place(partner, report, bp_event_get(engine, site_of(sides[i]))->location);
    json_object_set_new(partner, "barrier",
                        sides[i]->barrier != BP_NO_EVENT ? json_true() : json_false());
    json_array_append_new(partners, partner);
  }
  json_object_set_new(object, "partners", partners);

  json_t *notes = json_array();
  bp_note list[BP_NOTES_MAX];
  count = bp_finding_notes(engine, finding, list);
  for (size_t i = 0; i < count; i++) {
    json_t *note = place_json(report, bp_event_get(engine, list[i].event)->location);
    json_object_set_new(note, "message", json_string(list[i].text));
    json_array_append_new(notes, note);
    free(list[i].text);
  }
  json_object_set_new(object, "notes", notes);

  json_t *fixits = json_array();
  bp_fix fix;
  if (bp_finding_fix(engine, finding, &fix)) {
    char *path = bp_report_path(report, fix.begin.file);
    json_array_append_new(fixits, json_pack("{s:s, s:i, s:i, s:i, s:i, s:s}", "file", path, "line",
                                            (json_int_t)fix.begin.line, "column",
                                            (json_int_t)fix.begin.column, "end_line",
                                            (json_int_t)fix.end.line, "end_column",
                                            (json_int_t)fix.end.column, "text", fix.text));
    free(path);
    free(fix.text);
  }
  json_object_set_new(object, "fixits", fixits);
  json_object_set_new(object, "key", key_json(engine, finding));
  return object;
}

static bool dump(FILE *out, json_t *root) {
  int status = json_dumpf(root, out, JSON_INDENT(2));
  json_decref(root);
  fputc('\n', out);
  fflush(out);
  return status == 0 && !ferror(out);
}

bool bp_report_json(FILE *out, const bp_report *report) {
  json_t *findings = json_array();
  for (size_t i = 0; i < report->count; i++)
    json_array_append_new(findings, finding_json(report, &report->findings[i]));
  return dump(out, json_pack("{s:s, s:s, s:o}", "tool", "barrierpair", "version",
                             BARRIERPAIR_VERSION, "findings", findings));
}

/* ---- SARIF ---- */

/* A file reference: relative to %SRCROOT% (the base directory) when the
 * file is below it, else an absolute file: URI; percent-encoded. */
static json_t *artifact_json(const bp_report *report, uint32_t file) {
  const char *path = bp_file_path(report->engine, file);
  const char *relative = path_below(report->base_dir, path);
  const char *text = relative && *relative ? relative : path;
  size_t length = strlen(text);
  char *uri = malloc(length * 3 + 8);
  if (!uri)
    abort();
  size_t n = 0;
  if (!relative || !*relative)
    n += (size_t)sprintf(uri, "file://");
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
        strchr("-._~/", *c))
      uri[n++] = (char)*c;
    else
      n += (size_t)sprintf(uri + n, "%%%02X", *c);
  }
  uri[n] = '\0';
  json_t *artifact = json_pack("{s:s}", "uri", uri);
  if (relative && *relative)
    json_object_set_new(artifact, "uriBaseId", json_string("SRCROOT"));
  free(uri);
  return artifact;
}

static json_t *physical_json(const bp_report *report, bp_location location) {
  return json_pack("{s:o, s:{s:i, s:i}}", "artifactLocation", artifact_json(report, location.file),
                   "region", "startLine", (json_int_t)location.line, "startColumn",
                   (json_int_t)location.column);
}

static json_t *rule_json(bp_rule rule) {
  const char *name = bp_rule_name(rule);
  /* SARIF's name is for people and differs from the id: MissingBarrier. */
  char pascal[64];
  size_t n = 0;
  for (const char *c = name; *c && n + 1 < sizeof pascal; c++) {
    if (*c == '-')
      continue;
    bool start = c == name || c[-1] == '-';
    pascal[n++] = start && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
  }
  pascal[n] = '\0';
  json_t *entry = json_pack("{s:s, s:s}", "id", name, "name", pascal);
  char *summary = bp_rule_summary(name);
  json_object_set_new(entry, "shortDescription", json_pack("{s:s}", "text", summary));
  json_object_set_new(entry, "fullDescription", json_pack("{s:s}", "text", summary));
  free(summary);
  const char *doc = bp_rule_doc(name);
  if (doc)
    json_object_set_new(entry, "help", json_pack("{s:s, s:s}", "text", doc, "markdown", doc));
  json_object_set_new(entry, "defaultConfiguration", json_pack("{s:s}", "level", "warning"));
  return entry;
}

static json_t *result_json(const bp_report *report, const bp_finding *finding) {
  const bp_engine *engine = report->engine;
  const bp_location location = bp_event_get(engine, finding->at)->location;
  char *message = bp_finding_message(engine, finding);
  json_t *result =
      json_pack("{s:s, s:i, s:s, s:{s:s}}", "ruleId", bp_rule_name(finding->rule), "ruleIndex",
                (json_int_t)finding->rule, "level", "warning", "message", "text", message);
  free(message);

  json_t *where = json_object();
  if (location.line)
    json_object_set_new(where, "physicalLocation", physical_json(report, location));
  json_object_set_new(where, "logicalLocations",
                      json_pack("[{s:s, s:s}]", "name",
                                bp_function_name(engine, finding->side.function), "kind",
                                "function"));
  json_object_set_new(result, "locations", json_pack("[o]", where));

  json_t *related = json_array();
  bp_note notes[BP_NOTES_MAX];
  size_t count = bp_finding_notes(engine, finding, notes);
  for (size_t i = 0; i < count; i++) {
    bp_location at = bp_event_get(engine, notes[i].event)->location;
    json_t *entry =
        json_pack("{s:i, s:{s:s}}", "id", (json_int_t)i + 1, "message", "text", notes[i].text);
    if (at.line)
      json_object_set_new(entry, "physicalLocation", physical_json(report, at));
    json_array_append_new(related, entry);
    free(notes[i].text);
  }
  if (count)
    json_object_set_new(result, "relatedLocations", related);
  else
    json_decref(related);

  bp_finding_key key;
  bp_key_of(engine, finding, &key);
  size_t size = strlen(key.rule) + strlen(key.function) + 8;
  for (size_t i = 0; i < key.object_count; i++)
    size += strlen(key.objects[i]) + 1;
  char *fingerprint = malloc(size);
  if (!fingerprint)
    abort();
  int n = snprintf(fingerprint, size, "%s|%s", key.rule, key.function);
  for (size_t i = 0; i < key.object_count; i++)
    n += snprintf(fingerprint + n, size - (size_t)n, "|%s", key.objects[i]);
  char *stable = bp_finding_stable_key(engine, report->base_dir, finding);
  json_object_set_new(
      result, "partialFingerprints",
      json_pack("{s:s, s:s}", "barrierpairKey/v1", fingerprint, "barrierpairKey/v2", stable));
  free(fingerprint);
  free(stable);

  bp_fix fix;
  if (bp_finding_fix(engine, finding, &fix)) {
    char description[128];
    snprintf(description, sizeof description, "%s %s",
             fix.begin.line == fix.end.line && fix.begin.column == fix.end.column ? "insert"
                                                                                  : "use",
             bp_finding_fix_barrier(finding));
    json_t *replacement =
        json_pack("{s:{s:i, s:i, s:i, s:i}, s:{s:s}}", "deletedRegion", "startLine",
                  (json_int_t)fix.begin.line, "startColumn", (json_int_t)fix.begin.column,
                  "endLine", (json_int_t)fix.end.line, "endColumn", (json_int_t)fix.end.column,
                  "insertedContent", "text", fix.text);
    json_object_set_new(result, "fixes",
                        json_pack("[{s:{s:s}, s:[{s:o, s:[o]}]}]", "description", "text",
                                  description, "artifactChanges", "artifactLocation",
                                  artifact_json(report, fix.begin.file), "replacements",
                                  replacement));
    free(fix.text);
  }
  return result;
}

bool bp_report_sarif(FILE *out, const bp_report *report) {
  json_t *rules = json_array();
  for (int rule = 0; rule < BP_RULE_COUNT; rule++)
    json_array_append_new(rules, rule_json((bp_rule)rule));
  json_t *results = json_array();
  for (size_t i = 0; i < report->count; i++)
    json_array_append_new(results, result_json(report, &report->findings[i]));

  json_t *run = json_object();
  json_object_set_new(run, "tool",
                      json_pack("{s:{s:s, s:s, s:s, s:o}}", "driver", "name", "barrierpair",
                                "version", BARRIERPAIR_VERSION, "semanticVersion",
                                BARRIERPAIR_VERSION, "rules", rules));
  if (report->base_dir && report->base_dir[0] == '/') {
    size_t length = strlen(report->base_dir);
    char *uri = malloc(length * 3 + 16);
    if (!uri)
      abort();
    size_t n = (size_t)sprintf(uri, "file://");
    for (const unsigned char *c = (const unsigned char *)report->base_dir; *c; c++) {
      if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          strchr("-._~/", *c))
        uri[n++] = (char)*c;
      else
        n += (size_t)sprintf(uri + n, "%%%02X", *c);
    }
    if (uri[n - 1] != '/')
      uri[n++] = '/';
    uri[n] = '\0';
    json_object_set_new(run, "originalUriBaseIds", json_pack("{s:{s:s}}", "SRCROOT", "uri", uri));
    free(uri);
  }
  json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
  json_object_set_new(run, "results", results);
  return dump(out, json_pack("{s:s, s:s, s:[o]}", "$schema",
                             "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                             "runs", run));
}

/* ---- GitLab code quality ---- */

/* FNV-1a, 64 bits, in hex: a fingerprint GitLab can compare across runs. */
static void fingerprint_of(const char *text, size_t occurrence, char hex[24]) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++)
    hash = (hash ^ *c) * 0x100000001b3u;
  for (size_t n = occurrence; n; n >>= 8)
    hash = (hash ^ (n & 0xff)) * 0x100000001b3u;
  snprintf(hex, 24, "%016llx", (unsigned long long)hash);
}

bool bp_report_gitlab(FILE *out, const bp_report *report) {
  json_t *issues = json_array();
  char **keys = calloc(report->count ? report->count : 1, sizeof *keys);
  if (!keys)
    abort();
  for (size_t i = 0; i < report->count; i++) {
    const bp_finding *finding = &report->findings[i];
    const bp_location location = bp_event_get(report->engine, finding->at)->location;
    keys[i] = bp_finding_stable_key(report->engine, report->base_dir, finding);
    /* Findings that share a key (two like accesses in one function) are
     * told apart by their rank among them, not by a line. */
    size_t occurrence = 0;
    for (size_t k = 0; k < i; k++)
      occurrence += strcmp(keys[k], keys[i]) == 0;
    char fingerprint[24];
    fingerprint_of(keys[i], occurrence, fingerprint);
    char *message = bp_finding_message(report->engine, finding);
    char *path = location.line ? bp_report_path(report, location.file) : copy_string("");
    char check[96];
    snprintf(check, sizeof check, "barrierpair-%s", bp_rule_name(finding->rule));
    json_array_append_new(issues,
                          json_pack("{s:s, s:s, s:s, s:s, s:{s:s, s:{s:i}}}", "description",
                                    message, "check_name", check, "fingerprint", fingerprint,
                                    "severity", "major", "location", "path", path, "lines", "begin",
                                    (json_int_t)(location.line ? location.line : 1)));
    free(message);
    free(path);
  }
  for (size_t i = 0; i < report->count; i++)
    free(keys[i]);
  free(keys);
  return dump(out, issues);
}
