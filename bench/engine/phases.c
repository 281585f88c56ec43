#define _POSIX_C_SOURCE 200809L
#include "phases.h"

#include "findings/findings.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static const char *const names[PHASE_COUNT] = {
    [PHASE_BUILD] = "build",        [PHASE_ORDERINGS] = "orderings", [PHASE_PAIRING] = "pairing",
    [PHASE_CHAINS] = "chains",      [PHASE_UNPAIRED] = "unpaired",   [PHASE_MERGE] = "merge",
    [PHASE_REPORTING] = "reporting"};

const char *phase_name(phase p) {
  return names[p];
}

double phase_clock(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

long phase_peak_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static void end_phase(phase_results *results, phase p, double *since) {
  double now = phase_clock();
  results->seconds[p] = now - *since;
  results->peak_kib[p] = phase_peak_kib();
  *since = now;
}

static void report(const bp_engine *engine, const bp_finding *findings, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(bp_finding_message(engine, &findings[i]));
    bp_note notes[BP_NOTES_MAX];
    size_t note_count = bp_finding_notes(engine, &findings[i], notes);
    for (size_t n = 0; n < note_count; n++)
      free(notes[n].text);
    bp_fix fix;
    if (bp_finding_fix(engine, &findings[i], &fix))
      free(fix.text);
  }
}

void phases_run(bp_engine *engine, phase_results *results) {
  bp_options options = {0};
  bp_analysis analysis;
  double since = phase_clock();
  bp_analysis_begin(&analysis, engine, &options);
  results->orderings = analysis.orderings.count;
  end_phase(results, PHASE_ORDERINGS, &since);
  bp_pair_barriers(&analysis);
  bp_check_missing_barriers(&analysis);
  bp_check_missing_access_once(&analysis);
  end_phase(results, PHASE_PAIRING, &since);
  bp_check_transitive_weak_barriers(&analysis);
  end_phase(results, PHASE_CHAINS, &since);
  bp_check_unpaired_barriers(&analysis);
  bp_check_barrier_kinds(&analysis);
  end_phase(results, PHASE_UNPAIRED, &since);
  bp_finding *findings;
  results->findings = bp_merge_findings(&analysis, &findings);
  end_phase(results, PHASE_MERGE, &since);
  report(engine, findings, results->findings);
  end_phase(results, PHASE_REPORTING, &since);
  free(findings);
  bp_analysis_end(&analysis);
}
