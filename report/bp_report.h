/* Reporters of the command-line driver: findings as clang-style text, JSON
 * and SARIF 2.1.0, and baselines. C, on the engine's API alone: every word
 * comes from the engine (bp_finding_message, bp_finding_notes,
 * bp_finding_fix), so the plugin and the driver say the same. */
#ifndef BARRIERPAIR_REPORT_H
#define BARRIERPAIR_REPORT_H

#include "barrierpair/barrierpair.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const bp_engine *engine;
  const bp_finding *findings;
  size_t count;
  const char *base_dir; /* absolute; files below it are written relative to it */
  /* Files analysed with another file's text (check --contents): the text
   * report quotes their lines from the contents file. Absolute paths. */
  const char *const *overlaid_files;
  const char *const *contents_files;
  size_t overlay_count;
} bp_report;

/* A file's path as reports write it (malloc()ed). */
char *bp_report_path(const bp_report *report, uint32_t file);

/* Sorts findings by file path, line, column, rule and message, so the order
 * does not depend on how the program was assembled. */
void bp_report_sort(const bp_engine *engine, const char *base_dir, bp_finding *findings,
                    size_t count);

/* clang's format: `file:line:col: warning: message [barrierpair-rule]`, the
 * source line and a caret, then the notes the same way. */
bool bp_report_text(FILE *out, const bp_report *report);
/* {"tool": ..., "findings": [{rule, severity, file, line, column, function,
 * message, scenario, partners, notes, fixits, key}]} */
bool bp_report_json(FILE *out, const bp_report *report);
/* SARIF 2.1.0: a rule entry per rule, with its documentation as help. */
bool bp_report_sarif(FILE *out, const bp_report *report);
/* GitLab's code quality report: [{description, check_name, fingerprint,
 * severity, location: {path, lines: {begin}}}], the fingerprint a hash of
 * the finding's stable key. */
bool bp_report_gitlab(FILE *out, const bp_report *report);

/* The finding's baseline key: rule, function and objects, no lines. */
typedef struct {
  const char *rule;
  const char *function;
  const char *objects[2];
  size_t object_count;
} bp_finding_key;

void bp_key_of(const bp_engine *engine, const bp_finding *finding, bp_finding_key *key);

/* ---- Baselines ---- */

typedef struct bp_baseline bp_baseline;

/* NULL with `error` filled when the file cannot be read or is not a
 * baseline. */
bp_baseline *bp_baseline_read(const char *path, char *error, size_t error_size);
void bp_baseline_free(bp_baseline *baseline);
/* Removes the findings the baseline records (as many of each key as it
 * recorded) and returns how many are left, compacted at the front. Paths in
 * keys are relative to `base_dir` when below it. */
size_t bp_baseline_apply(const bp_baseline *baseline, const bp_engine *engine, const char *base_dir,
                         bp_finding *findings, size_t count);
bool bp_baseline_write(const char *path, const bp_engine *engine, const char *base_dir,
                       const bp_finding *findings, size_t count, char *error, size_t error_size);

/* The key baselines record for a finding (malloc()ed): rule, file, function
 * and the finding's own accesses, barrier or annotation, as compact JSON. It
 * survives edits that move the code and changes to other functions; SARIF
 * gives it as partialFingerprints["barrierpairKey/v2"]. */
char *bp_finding_stable_key(const bp_engine *engine, const char *base_dir,
                            const bp_finding *finding);

/* ---- Kernel-style comments as the analysis checked them ---- */

typedef struct bp_comment_log bp_comment_log;

bp_comment_log *bp_comment_log_create(void);
/* A bp_comment_handler: set it in bp_options with the log as context. */
void bp_comment_log_add(void *log, const bp_comment_check *check);
/* {"comments": [{file, line, column, function, defined, agrees, partners, verdict}]},
 * by place; false when `path` cannot be written. */
bool bp_comment_log_write(const bp_comment_log *log, const bp_engine *engine, const char *base_dir,
                          const char *path);
void bp_comment_log_free(bp_comment_log *log);

/* ---- Rule documentation, embedded from docs/rules/ at build time ---- */

/* The Markdown of docs/rules/<rule>.md, or NULL. */
const char *bp_rule_doc(const char *rule);
/* One sentence for the rule: its "Fires when" paragraph as plain text
 * (malloc()ed). */
char *bp_rule_summary(const char *rule);

#ifdef __cplusplus
}
#endif

#endif
