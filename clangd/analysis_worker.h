/* Analyses open documents in the background, one `barrierpair check` at a
 * time, the newest text of each document first to go: a document edited
 * while it waits is analysed once, at its last version, and an analysis
 * overtaken by an edit is killed. */
#ifndef BARRIERPAIR_CLANGD_ANALYSIS_WORKER_H
#define BARRIERPAIR_CLANGD_ANALYSIS_WORKER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Called on the worker's thread with the findings (their "file" fields made
 * absolute) of `version` of the document; the callee decides whether they
 * are still current. */
typedef void (*analysis_done)(const char *uri, int64_t version, json_t *findings, void *context);

typedef struct analysis_worker analysis_worker;

/* `barrierpair` is the program to run; `compile_commands_dir` clangd's
 * --compile-commands-dir or NULL. */
analysis_worker *analysis_worker_start(const char *barrierpair, const char *compile_commands_dir,
                                       analysis_done done, void *context);

/* Queues the analysis of `text` as the document `uri` (file `path`). */
void analysis_submit(analysis_worker *worker, const char *uri, const char *path, int64_t version,
                     const char *text, size_t length);

/* Stops the worker: the analysis running is killed, the queue dropped. */
void analysis_worker_stop(analysis_worker *worker);

#endif
