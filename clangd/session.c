/* The relay's state: the open documents (text, version, clangd's last
 * diagnostics, ours) and the codeAction requests awaiting clangd's answer.
 * Lock order: `lock`, then `editor_lock`. */
#define _POSIX_C_SOURCE 200809L

#include "session.h"

#include "analysis_worker.h"
#include "file_uri.h"
#include "lsp_findings.h"
#include "lsp_framing.h"
#include "text_positions.h"
#include "tracked_edits.h"

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct document {
  char *uri, *path; /* path NULL: not a file, never analysed */
  char *text;
  size_t length;
  int64_t version;
  bool analysed;          /* C, so barrierpair looks at it */
  json_t *clangd_params;  /* clangd's last publishDiagnostics params, or NULL */
  int64_t clangd_version; /* the version of the text they are about */
  json_t *ours;           /* our diagnostics of `ours_version`, or NULL */
  json_t *our_actions;    /* per diagnostic of `ours`, its code actions */
  int64_t ours_version;
  /* The edits since the older of the two versions above, to move both sets
   * to the newer one: a set of an older text never points into a newer. */
  tracked_edits *edits;
  json_t *published; /* the last params sent to the editor, or NULL */
  struct document *next;
} document;

typedef struct pending_actions {
  char *request_id; /* the codeAction request's id, serialised */
  json_t *actions;
  struct pending_actions *next;
} pending_actions;

struct session {
  int editor_out, clangd_in;
  pthread_mutex_t lock, editor_lock, clangd_lock;
  analysis_worker *worker;
  document *documents;
  pending_actions *pending;
  char *initialize_id;
  bool code_action_literals; /* the editor takes CodeAction objects */
  position_units units;
};

/* ---- Output ---- */

static void write_to(int fd, pthread_mutex_t *lock, const char *body, size_t length) {
  pthread_mutex_lock(lock);
  lsp_write(fd, body, length); /* a closed peer shows as EOF on its reader */
  pthread_mutex_unlock(lock);
}

static void send_to_editor(session *s, json_t *message) {
  char *body = json_dumps(message, JSON_COMPACT);
  if (body)
    write_to(s->editor_out, &s->editor_lock, body, strlen(body));
  free(body);
}

/* ---- Documents ---- */

static document *find_document(session *s, const char *uri) {
  for (document *d = s->documents; uri && d; d = d->next)
    if (strcmp(d->uri, uri) == 0)
      return d;
  return NULL;
}

static void document_free(document *d) {
  free(d->uri);
  free(d->path);
  free(d->text);
  json_decref(d->clangd_params);
  json_decref(d->ours);
  json_decref(d->our_actions);
  json_decref(d->published);
  tracked_edits_free(d->edits);
  free(d);
}

/* clangd's last set for the document with ours added, both moved to the
 * newer of the texts they are about, and that text's version. Unless
 * `always`, nothing is sent when the editor already has this set. */
static void publish_merged(session *s, document *d, bool always) {
  int64_t version = d->version, oldest = d->version;
  if (d->clangd_params || d->ours) {
    version = d->clangd_params ? d->clangd_version : d->ours_version;
    if (d->ours && d->ours_version > version)
      version = d->ours_version;
    oldest = d->clangd_params ? d->clangd_version : d->ours_version;
    if (d->ours && d->ours_version < oldest)
      oldest = d->ours_version;
  }
  json_t *params =
      d->clangd_params ? json_deep_copy(d->clangd_params) : json_pack("{s:s}", "uri", d->uri);
  json_t *all = tracked_edits_move(d->edits, d->uri, json_object_get(params, "diagnostics"), NULL,
                                   d->clangd_version, version, NULL);
  if (d->ours) {
    json_t *ours =
        tracked_edits_move(d->edits, d->uri, d->ours, NULL, d->ours_version, version, NULL);
    json_array_extend(all, ours);
    json_decref(ours);
  }
  json_object_set_new(params, "diagnostics", all);
  json_object_set_new(params, "version", json_integer(version));
  tracked_edits_forget_until(d->edits, oldest);
  if (!always && d->published && json_equal(params, d->published)) {
    json_decref(params);
    return;
  }
  json_decref(d->published);
  d->published = json_incref(params);
  json_t *message = json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method",
                              "textDocument/publishDiagnostics", "params", params);
  send_to_editor(s, message);
  json_decref(message);
}

static void submit(session *s, document *d) {
  if (s->worker && d->analysed)
    analysis_submit(s->worker, d->uri, d->path, d->version, d->text, d->length);
}

static bool ends_with(const char *text, const char *suffix) {
  size_t length = strlen(text), suffix_length = strlen(suffix);
  return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

static document *open_document(session *s, const json_t *item) {
  const char *uri = json_string_value(json_object_get(item, "uri"));
  const char *text = json_string_value(json_object_get(item, "text"));
  const char *language = json_string_value(json_object_get(item, "languageId"));
  if (!uri || !text)
    return NULL;
  document *old = find_document(s, uri);
  if (old) { /* opened twice: the second wins */
    for (document **slot = &s->documents; *slot; slot = &(*slot)->next)
      if (*slot == old) {
        *slot = old->next;
        break;
      }
    document_free(old);
  }
  document *d = calloc(1, sizeof *d);
  if (!d || !(d->uri = strdup(uri)))
    abort();
  d->path = file_uri_to_path(uri);
  d->length = json_string_length(json_object_get(item, "text"));
  d->text = malloc(d->length + 1);
  if (!d->text)
    abort();
  memcpy(d->text, text, d->length + 1);
  d->version = json_integer_value(json_object_get(item, "version"));
  d->clangd_version = d->ours_version = d->version;
  d->edits = tracked_edits_create();
  d->analysed = d->path && (language ? strcmp(language, "c") == 0 : ends_with(d->path, ".c"));
  d->next = s->documents;
  s->documents = d;
  return d;
}

static void close_document(session *s, const char *uri) {
  for (document **slot = &s->documents; *slot; slot = &(*slot)->next)
    if (strcmp((*slot)->uri, uri) == 0) {
      document *d = *slot;
      *slot = d->next;
      document_free(d);
      return;
    }
}

static document *change_document(session *s, const json_t *params) {
  json_t *item = json_object_get(params, "textDocument");
  document *d = find_document(s, json_string_value(json_object_get(item, "uri")));
  if (!d)
    return NULL;
  json_t *version = json_object_get(item, "version");
  int64_t next = json_is_integer(version) ? json_integer_value(version) : d->version + 1;
  size_t i;
  json_t *change;
  json_array_foreach(json_object_get(params, "contentChanges"), i, change) {
    tracked_edits_add(d->edits, next, change, s->units);
    if (!text_apply_change(&d->text, &d->length, change, s->units))
      fprintf(stderr, "barrierpair-clangd: a malformed change of %s was skipped\n", d->uri);
  }
  d->version = next;
  return d;
}

/* Called by the analysis worker. */
static void analysis_finished(const char *uri, int64_t version, json_t *findings, void *context) {
  session *s = context;
  pthread_mutex_lock(&s->lock);
  document *d = find_document(s, uri);
  /* The newest edit wins: a result for an older text is dropped. */
  if (d && d->version == version) {
    lsp_document_view view = {d->uri, d->path, d->text, d->length, s->units};
    json_t *actions;
    json_t *ours = lsp_diagnostics_of(findings, &view, &actions);
    json_decref(d->ours);
    json_decref(d->our_actions);
    d->ours = ours;
    d->our_actions = actions;
    d->ours_version = version;
    publish_merged(s, d, false);
  }
  pthread_mutex_unlock(&s->lock);
}

/* ---- Code actions ---- */

static char *serialised_id(const json_t *message) {
  json_t *id = json_object_get(message, "id");
  return id ? json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
}

static bool wants_quick_fixes(const json_t *params) {
  json_t *only = json_object_get(json_object_get(params, "context"), "only");
  if (!json_is_array(only))
    return true;
  size_t i;
  json_t *kind;
  json_array_foreach(only, i, kind) {
    const char *name = json_string_value(kind);
    if (name && (strcmp(name, "quickfix") == 0 || name[0] == '\0'))
      return true;
  }
  return false;
}

/* Our quick fixes for a codeAction request, kept until clangd answers it. */
static void remember_code_actions(session *s, const json_t *request) {
  json_t *params = json_object_get(request, "params");
  document *d = find_document(
      s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
  json_t *range = json_object_get(params, "range");
  if (!d || !d->ours || !range || !s->code_action_literals || !wants_quick_fixes(params))
    return;
  /* Ours of an older text apply where the edits since left them alone. */
  json_t *current_actions;
  json_t *current = tracked_edits_move(d->edits, d->uri, d->ours, d->our_actions, d->ours_version,
                                       d->version, &current_actions);
  json_t *actions = json_array();
  size_t i;
  json_t *diagnostic;
  json_array_foreach(current, i, diagnostic) {
    if (lsp_ranges_touch(json_object_get(diagnostic, "range"), range))
      json_array_extend(actions, json_array_get(current_actions, i));
  }
  json_decref(current);
  json_decref(current_actions);
  char *id = serialised_id(request);
  if (!json_array_size(actions) || !id) {
    json_decref(actions);
    free(id);
    return;
  }
  pending_actions *p = calloc(1, sizeof *p);
  if (!p)
    abort();
  p->request_id = id;
  p->actions = actions;
  p->next = s->pending;
  s->pending = p;
}

static pending_actions *take_pending(session *s, const char *id) {
  for (pending_actions **slot = &s->pending; id && *slot; slot = &(*slot)->next)
    if (strcmp((*slot)->request_id, id) == 0) {
      pending_actions *p = *slot;
      *slot = p->next;
      return p;
    }
  return NULL;
}

/* clangd's answer with our actions after its own. */
static void answer_with_ours(session *s, json_t *response, pending_actions *p) {
  json_t *result = json_object_get(response, "result");
  json_t *merged = json_array();
  if (json_is_array(result))
    json_array_extend(merged, result);
  json_array_extend(merged, p->actions);
  json_object_del(response, "error"); /* ours stand even when clangd had none */
  json_object_set_new(response, "result", merged);
  send_to_editor(s, response);
}

/* ---- The two directions ---- */

static json_t *parse(const char *body, size_t length, const char *from) {
  json_error_t error;
  json_t *message = json_loadb(body, length, 0, &error);
  if (!json_is_object(message)) {
    fprintf(stderr, "barrierpair-clangd: skipped a malformed message from %s: %s\n", from,
            message ? "not a JSON object" : error.text);
    json_decref(message);
    return NULL;
  }
  return message;
}

static bool is(const char *method, const char *name) {
  return method && strcmp(method, name) == 0;
}

void session_from_editor(session *s, const char *body, size_t length) {
  json_t *message = parse(body, length, "the editor");
  if (!message)
    return;
  const char *method = json_string_value(json_object_get(message, "method"));
  json_t *params = json_object_get(message, "params");
  document *to_analyse = NULL;
  pthread_mutex_lock(&s->lock);
  if (is(method, "initialize")) {
    free(s->initialize_id);
    s->initialize_id = serialised_id(message);
    json_t *code_action = json_object_get(
        json_object_get(json_object_get(params, "capabilities"), "textDocument"), "codeAction");
    s->code_action_literals = json_object_get(code_action, "codeActionLiteralSupport") != NULL;
  } else if (is(method, "textDocument/didOpen")) {
    to_analyse = open_document(s, json_object_get(params, "textDocument"));
  } else if (is(method, "textDocument/didChange")) {
    to_analyse = change_document(s, params);
  } else if (is(method, "textDocument/didSave")) {
    to_analyse = find_document(
        s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
  } else if (is(method, "textDocument/didClose")) {
    const char *uri =
        json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    if (uri)
      close_document(s, uri);
  } else if (is(method, "textDocument/codeAction")) {
    remember_code_actions(s, message);
  }
  pthread_mutex_unlock(&s->lock);

  write_to(s->clangd_in, &s->clangd_lock, body, length);

  if (to_analyse) {
    pthread_mutex_lock(&s->lock);
    /* Still open: only this thread opens and closes documents. */
    submit(s, to_analyse);
    pthread_mutex_unlock(&s->lock);
  }
  json_decref(message);
}

void session_from_clangd(session *s, const char *body, size_t length) {
  json_t *message = parse(body, length, "clangd");
  if (!message)
    return;
  const char *method = json_string_value(json_object_get(message, "method"));
  bool handled = false;
  pthread_mutex_lock(&s->lock);
  if (is(method, "textDocument/publishDiagnostics")) {
    json_t *params = json_object_get(message, "params");
    document *d = find_document(s, json_string_value(json_object_get(params, "uri")));
    if (d && json_is_array(json_object_get(params, "diagnostics"))) {
      json_decref(d->clangd_params);
      d->clangd_params = json_incref(params);
      json_t *version = json_object_get(params, "version");
      d->clangd_version = json_is_integer(version) ? json_integer_value(version) : d->version;
      publish_merged(s, d, true);
      handled = true;
    }
  } else if (!method && json_object_get(message, "id")) {
    char *id = serialised_id(message);
    if (s->initialize_id && id && strcmp(id, s->initialize_id) == 0) {
      json_t *result = json_object_get(message, "result");
      const char *encoding = json_string_value(
          json_object_get(json_object_get(result, "capabilities"), "positionEncoding"));
      if (!encoding)
        encoding = json_string_value(json_object_get(result, "offsetEncoding"));
      s->units = position_units_named(encoding);
    }
    pending_actions *p = take_pending(s, id);
    if (p) {
      answer_with_ours(s, message, p);
      json_decref(p->actions);
      free(p->request_id);
      free(p);
      handled = true;
    }
    free(id);
  }
  pthread_mutex_unlock(&s->lock);
  if (!handled)
    write_to(s->editor_out, &s->editor_lock, body, length);
  json_decref(message);
}

/* ---- Life cycle ---- */

session *session_create(int editor_out, int clangd_in, const char *barrierpair,
                        const char *compile_commands_dir) {
  session *s = calloc(1, sizeof *s);
  if (!s)
    abort();
  s->editor_out = editor_out;
  s->clangd_in = clangd_in;
  s->units = UNITS_UTF16;
  pthread_mutex_init(&s->lock, NULL);
  pthread_mutex_init(&s->editor_lock, NULL);
  pthread_mutex_init(&s->clangd_lock, NULL);
  if (barrierpair)
    s->worker = analysis_worker_start(barrierpair, compile_commands_dir, analysis_finished, s);
  return s;
}

void session_stop_analysis(session *s) {
  pthread_mutex_lock(&s->lock);
  analysis_worker *worker = s->worker;
  s->worker = NULL;
  pthread_mutex_unlock(&s->lock);
  if (worker)
    analysis_worker_stop(worker); /* outside `lock`: its callback takes it */
}

void session_hold_output(session *s) {
  pthread_mutex_lock(&s->editor_lock);
}
