/* barrierpair-bench-engine: the engine's cost as the program grows. For each
 * size, a child process builds a synthetic program of that many sites
 * (synthetic.c), runs the analysis phase by phase (phases.c) and reports its
 * times and peak memory; a process per size, so each peak is its own.
 *
 *   barrierpair-bench-engine [--sites N,N,...] [--seed S] [--json FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "phases.h"
#include "synthetic.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_SIZES = 32 };

typedef struct {
  size_t sites;
  synthetic_shape shape;
  size_t events;
  phase_results phases;
  double analysis_seconds; /* orderings through merge: bp_analyze's part */
} measurement;

static const char usage[] =
    "usage: barrierpair-bench-engine [--sites N,N,...] [--seed S] [--json FILE]\n"
    "  --sites   program sizes in sites (events); default 1000,10000,100000,1000000\n"
    "  --seed    the synthetic programs' seed (default 1)\n"
    "  --json    also write the measurements to FILE\n";

static size_t parse_sizes(const char *text, size_t *sizes) {
  size_t count = 0;
  while (*text && count < MAX_SIZES) {
    char *end;
    errno = 0;
    double value = strtod(text, &end); /* 1e6 is accepted */
    if (errno || end == text || value < 1 || value > 1e8 || (*end && *end != ','))
      return 0;
    sizes[count++] = (size_t)value;
    text = *end ? end + 1 : end;
  }
  return *text ? 0 : count;
}

static void measure(size_t sites, uint64_t seed, measurement *m) {
  memset(m, 0, sizeof *m);
  m->sites = sites;
  bp_engine *engine = bp_engine_create();
  double start = phase_clock();
  synthetic_build(engine, sites, seed, &m->shape);
  m->phases.seconds[PHASE_BUILD] = phase_clock() - start;
  m->phases.peak_kib[PHASE_BUILD] = phase_peak_kib();
  m->events = bp_event_count(engine);
  phases_run(engine, &m->phases);
  for (int p = PHASE_ORDERINGS; p <= PHASE_MERGE; p++)
    m->analysis_seconds += m->phases.seconds[p];
  bp_engine_destroy(engine);
}

/* The child measures and sends its record back through a pipe. */
static bool measure_in_child(size_t sites, uint64_t seed, measurement *m) {
  int channel[2];
  if (pipe(channel) != 0)
    return false;
  pid_t child = fork();
  if (child < 0)
    return false;
  if (child == 0) {
    close(channel[0]);
    measure(sites, seed, m);
    ssize_t written = write(channel[1], m, sizeof *m);
    _exit(written == (ssize_t)sizeof *m ? 0 : 1);
  }
  close(channel[1]);
  ssize_t got = read(channel[0], m, sizeof *m);
  close(channel[0]);
  int status;
  waitpid(child, &status, 0);
  return got == (ssize_t)sizeof *m && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void print_table(const measurement *ms, size_t count) {
  printf("%10s %10s %9s %9s %8s", "sites", "orderings", "findings", "analysis", "peak");
  for (int p = 0; p < PHASE_COUNT; p++)
    printf(" %9s", phase_name((phase)p));
  printf("\n");
  for (size_t i = 0; i < count; i++) {
    const measurement *m = &ms[i];
    printf("%10zu %10zu %9zu %8.3fs %6.0fMiB", m->events, m->phases.orderings, m->phases.findings,
           m->analysis_seconds, m->phases.peak_kib[PHASE_REPORTING] / 1024.0);
    for (int p = 0; p < PHASE_COUNT; p++)
      printf(" %8.3fs", m->phases.seconds[p]);
    printf("\n");
  }
}

static bool write_json(const char *path, uint64_t seed, const measurement *ms, size_t count) {
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  fprintf(out, "{\"tool\": \"barrierpair-bench-engine\", \"seed\": %" PRIu64 ", \"runs\": [\n",
          seed);
  for (size_t i = 0; i < count; i++) {
    const measurement *m = &ms[i];
    fprintf(out,
            "  {\"sites\": %zu, \"events\": %zu, \"functions\": %zu, \"objects\": %zu, "
            "\"orderings\": %zu, \"findings\": %zu, \"analysis_seconds\": %.6f, "
            "\"peak_rss_kib\": %ld,\n   \"seconds\": {",
            m->sites, m->events, m->shape.functions, m->shape.objects, m->phases.orderings,
            m->phases.findings, m->analysis_seconds, m->phases.peak_kib[PHASE_REPORTING]);
    for (int p = 0; p < PHASE_COUNT; p++)
      fprintf(out, "%s\"%s\": %.6f", p ? ", " : "", phase_name((phase)p), m->phases.seconds[p]);
    fprintf(out, "},\n   \"peak_rss_kib_after\": {");
    for (int p = 0; p < PHASE_COUNT; p++)
      fprintf(out, "%s\"%s\": %ld", p ? ", " : "", phase_name((phase)p), m->phases.peak_kib[p]);
    fprintf(out, "}}%s\n", i + 1 < count ? "," : "");
  }
  fprintf(out, "]}\n");
  return !ferror(out) & (fclose(out) == 0);
}

int main(int argc, char **argv) {
  size_t sizes[MAX_SIZES] = {1000, 10000, 100000, 1000000};
  size_t size_count = 4;
  uint64_t seed = 1;
  const char *json = NULL;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--sites") == 0 && value && (size_count = parse_sizes(value, sizes))) {
      i++;
    } else if (strcmp(argv[i], "--seed") == 0 && value) {
      seed = strtoull(value, NULL, 10);
      i++;
    } else if (strcmp(argv[i], "--json") == 0 && value) {
      json = value;
      i++;
    } else {
      fprintf(stderr, "barrierpair-bench-engine: bad argument '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  measurement ms[MAX_SIZES];
  for (size_t i = 0; i < size_count; i++) {
    if (!measure_in_child(sizes[i], seed, &ms[i])) {
      fprintf(stderr, "barrierpair-bench-engine: the run of %zu sites failed\n", sizes[i]);
      return 1;
    }
  }
  print_table(ms, size_count);
  if (json && !write_json(json, seed, ms, size_count)) {
    fprintf(stderr, "barrierpair-bench-engine: cannot write %s\n", json);
    return 1;
  }
  return 0;
}
