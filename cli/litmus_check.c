/* See litmus_check.h.
 *
 * Agreement with a file's Result: line (docs/litmus.md, "Litmus files"):
 * the Linux-kernel memory model says the `exists` outcome is Never
 * (forbidden) and the analyzer reports no ordering finding, or it says
 * Sometimes (allowed) and the analyzer reports an ordering finding on some
 * thread. Ordering findings are those of missing-barrier, weak-barrier and
 * transitive-weak-barrier: the rules that claim the outcome can happen. */
#define _POSIX_C_SOURCE 200809L
#include "litmus_check.h"

#include "bp_report.h"
#include "driver.h"
#include "lf_emit.h"
#include "lf_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool bp_litmus_wanted(const char *const *files, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (lf_is_litmus_argument(files[i]))
      return true;
  return false;
}

static bool is_ordering_rule(bp_rule rule) {
  return rule == BP_RULE_MISSING_BARRIER || rule == BP_RULE_WEAK_BARRIER ||
         rule == BP_RULE_TRANSITIVE_WEAK_BARRIER;
}

enum outcome { AGREE, DISAGREE, NO_RESULT, FAILED };

/* Converts and analyses one file; prints its findings and a verdict line. */
static enum outcome check_file(const char *path, const bp_options *analysis, const char *directory,
                               const char *cwd) {
  static struct lf_file file;
  char error[1024];
  if (!lf_parse_file(path, &file, error, sizeof error)) {
    fprintf(stderr, "%s\n", error);
    return FAILED;
  }
  char source[2048];
  snprintf(source, sizeof source, "%s/litmus.c", directory);
  FILE *out = fopen(source, "w");
  if (!out) {
    fprintf(stderr, "barrierpair: error: cannot write '%s': %s\n", source, strerror(errno));
    lf_free(&file);
    return FAILED;
  }
  /* The litmus file is analysed with the converted text, whose statements
   * sit on the litmus file's lines: findings point into the litmus file. */
  char absolute[2048];
  if (path[0] == '/' || !cwd)
    snprintf(absolute, sizeof absolute, "%s", path);
  else
    snprintf(absolute, sizeof absolute, "%s/%s", cwd, path);
  lf_emit_check(out, &file);
  fclose(out);

  const char *files[] = {absolute};
  const char *contents[] = {source};
  char include[2100];
  snprintf(include, sizeof include, "-I%s", directory);
  const char *arguments[] = {"-x", "c", "-std=gnu11", include, "-Wno-unused-variable"};
  bp_check_request request = {NULL, files, 1,     arguments, sizeof arguments / sizeof *arguments,
                              true, 1,     false, files,     contents,
                              1};
  bp_engine *engine = bp_engine_create();
  bp_check_summary summary;
  bp_check_lower(&request, engine, &summary);
  if (summary.input_error || summary.failed) {
    fprintf(stderr, "%s: error: the converted test does not compile\n", path);
    bp_engine_destroy(engine);
    lf_free(&file);
    return FAILED;
  }
  bp_finding *findings = NULL;
  size_t count = bp_analyze(engine, analysis, &findings);
  bp_report_sort(engine, cwd, findings, count);
  bp_report report = {engine, findings, count, cwd, NULL, NULL, 0};
  bp_report_text(stdout, &report);
  size_t ordering = 0;
  for (size_t i = 0; i < count; i++)
    ordering += is_ordering_rule(findings[i].rule);
  free(findings);
  bp_engine_destroy(engine);

  enum outcome outcome = NO_RESULT;
  const char *says = ordering ? "finding" : "no finding";
  if (file.result == LF_RESULT_NEVER)
    outcome = ordering ? DISAGREE : AGREE;
  else if (file.result == LF_RESULT_SOMETIMES)
    outcome = ordering ? AGREE : DISAGREE;
  printf("Litmus %s: LKMM %s, analyzer %s (%zu ordering finding%s): %s\n", file.name,
         file.result == LF_RESULT_NONE ? "-" : lf_result_name(file.result), says, ordering,
         ordering == 1 ? "" : "s",
         outcome == AGREE      ? "agree"
         : outcome == DISAGREE ? "DISAGREE"
                               : "no Result: line to compare with");
  lf_free(&file);
  return outcome;
}

int bp_litmus_check(const char *const *files, size_t count, const bp_options *analysis) {
  char buffer[1024];
  const char *tmp = getenv("TMPDIR");
  snprintf(buffer, sizeof buffer, "%s/barrierpair-check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  char *directory = mkdtemp(buffer);
  if (!directory || !lf_write_embedded(directory)) {
    fprintf(stderr, "barrierpair: error: cannot make a temporary directory: %s\n", strerror(errno));
    return 2;
  }
  char *cwd = getcwd(NULL, 0);
  size_t tally[FAILED + 1] = {0}, total = 0;
  bool input_error = false;
  for (size_t a = 0; a < count; a++) {
    char **paths;
    long n = lf_collect(files[a], &paths);
    if (n < 0) {
      input_error = true;
      continue;
    }
    for (long i = 0; i < n; i++) {
      tally[check_file(paths[i], analysis, directory, cwd)]++;
      total++;
    }
    lf_collect_free(paths, n);
  }
  if (total > 1) {
    size_t compared = tally[AGREE] + tally[DISAGREE];
    printf("\n%zu litmus tests: %zu agree with their Result: line, %zu disagree", total,
           tally[AGREE], tally[DISAGREE]);
    if (compared)
      printf(" (agreement %.1f%% of %zu compared)", 100.0 * (double)tally[AGREE] / (double)compared,
             compared);
    printf("; %zu without a Never or Sometimes Result: line, %zu not converted\n", tally[NO_RESULT],
           tally[FAILED]);
  }
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", directory);
  if (system(command) != 0)
    fprintf(stderr, "barrierpair: warning: cannot remove '%s'\n", directory);
  free(cwd);
  if (input_error || tally[FAILED])
    return 2;
  return tally[DISAGREE] ? 1 : 0;
}
