/* See lf_runner.h. Per file: parse, write the program (lf_emit_run.c),
 * compile it with the harness objects, run it, and print litmus7's
 * histogram, Observation and Time lines and what the file's Result: line
 * makes of them. */
#define _POSIX_C_SOURCE 200809L
#include "lf_runner.h"

#include "lf_emit.h"
#include "lf_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { EXIT_FINE = 0, EXIT_FORBIDDEN = 1, EXIT_INPUT = 2 };

struct run_settings {
  unsigned long long iterations;
  double seconds;
  bool pin;
  const char *cc;
  const char *keep; /* keep the generated sources here */
};

enum verdict { V_CONSISTENT, V_NOT_SHOWN, V_NO_RESULT, V_FORBIDDEN, V_ERROR };
static const char *const verdict_names[] = {"consistent", "not shown", "no Result line",
                                            "FORBIDDEN OUTCOME SEEN", "error"};

struct record {
  const char *path;
  char name[256];
  enum lf_result result;
  const char *observation;
  unsigned long long positive, total;
  double rate;
  enum verdict verdict;
};

#define MAX_SHOWN_STATES 4096

struct histogram {
  int columns[LF_MAX_NAMES]; /* shown location -> column of the program's output */
  char values[MAX_SHOWN_STATES][LF_MAX_NAMES][LF_NAME];
  unsigned long long counts[MAX_SHOWN_STATES];
  bool satisfies[MAX_SHOWN_STATES];
  size_t count;
};

static bool lf_arg_is_option(const char *argument) {
  return argument[0] == '-';
}

bool lf_runner_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (lf_arg_is_option(argv[i])) {
      if (i + 1 < argc && strchr(argv[i], '=') == NULL &&
          (strcmp(argv[i], "--iterations") == 0 || strcmp(argv[i], "--seconds") == 0 ||
           strcmp(argv[i], "--affinity") == 0 || strcmp(argv[i], "--cc") == 0 ||
           strcmp(argv[i], "--keep") == 0 || strcmp(argv[i], "--json") == 0 ||
           strcmp(argv[i], "--scenario") == 0 || strcmp(argv[i], "--variant") == 0 ||
           strcmp(argv[i], "--batch") == 0 || strcmp(argv[i], "--stride") == 0 ||
           strcmp(argv[i], "--stagger") == 0))
        i++;
      continue;
    }
    return true;
  }
  return false;
}

static int run_command(const char *command) {
  int status = system(command);
  return status == -1 ? -1 : WEXITSTATUS(status);
}

/* Compiles the harness once per invocation. */
static bool prepare(const char *directory, const struct run_settings *settings) {
  if (!lf_write_embedded(directory))
    return false;
  char command[4096];
  snprintf(command, sizeof command,
           "cd '%s' && %s -O2 -std=gnu11 -pthread -c lf_harness.c spin_barrier.c affinity.c "
           "> harness.log 2>&1",
           directory, settings->cc);
  if (run_command(command) != 0) {
    fprintf(stderr,
            "barrierpair-litmus: error: cannot compile the harness with '%s' (see %s/harness.log); "
            "give another compiler with --cc or CC\n",
            settings->cc, directory);
    return false;
  }
  return true;
}

struct state_view {
  const struct lf_file *file;
  char (*names)[LF_NAME]; /* the program's columns */
  char (*values)[LF_NAME];
  int count;
};

static long value_of(const struct lf_location *location, void *context) {
  const struct state_view *view = context;
  char wanted[LF_NAME + 8];
  if (location->thread >= 0)
    snprintf(wanted, sizeof wanted, "%d:%s", location->thread, location->name);
  else
    snprintf(wanted, sizeof wanted, "%s", location->name);
  for (int c = 0; c < view->count; c++) {
    if (strcmp(view->names[c], wanted) != 0)
      continue;
    const char *value = view->values[c];
    if (value[0] == '&') {
      for (size_t v = 0; v < view->file->var_count; v++)
        if (strcmp(view->file->vars[v].name, value + 1) == 0)
          return lf_pointer_value(v);
      return 0;
    }
    return strtol(value, NULL, 10);
  }
  return 0;
}

static int find_column(char (*names)[LF_NAME], int count, const struct lf_location *location) {
  char wanted[LF_NAME + 8];
  if (location->thread >= 0)
    snprintf(wanted, sizeof wanted, "%d:%s", location->thread, location->name);
  else
    snprintf(wanted, sizeof wanted, "%s", location->name);
  for (int c = 0; c < count; c++)
    if (strcmp(names[c], wanted) == 0)
      return c;
  return -1;
}

/* Reads the program's output into the histogram of the shown locations. */
static bool read_states(FILE *in, const struct lf_file *file, struct histogram *h,
                        unsigned long long *filtered_out, double *seconds, unsigned long long *runs,
                        int *threads, int *cpus, int *pinned) {
  static char names[LF_MAX_THREADS * LF_MAX_NAMES + LF_MAX_NAMES][LF_NAME];
  static char values[LF_MAX_THREADS * LF_MAX_NAMES + LF_MAX_NAMES][LF_NAME];
  int count = 0;
  char line[16384];
  bool timed = false;
  while (fgets(line, sizeof line, in)) {
    char *save = NULL;
    char *word = strtok_r(line, " \n", &save);
    if (!word)
      continue;
    if (strcmp(word, "columns") == 0) {
      while ((word = strtok_r(NULL, " \n", &save)) && count < (int)(sizeof names / sizeof *names))
        snprintf(names[count++], LF_NAME, "%s", word);
      for (size_t s = 0; s < file->shown_count; s++)
        h->columns[s] = find_column(names, count, &file->shown[s]);
    } else if (strcmp(word, "state") == 0) {
      unsigned long long n = strtoull(strtok_r(NULL, " \n", &save), NULL, 10);
      for (int c = 0; c < count; c++) {
        word = strtok_r(NULL, " \n", &save);
        snprintf(values[c], LF_NAME, "%s", word ? word : "0");
      }
      struct state_view view = {file, names, values, count};
      if (file->filter && !lf_prop_holds(file, file->filter, value_of, &view)) {
        *filtered_out += n;
        continue;
      }
      bool satisfies = lf_prop_holds(file, file->condition, value_of, &view);
      size_t found = h->count;
      for (size_t i = 0; i < h->count && found == h->count; i++) {
        bool same = h->satisfies[i] == satisfies;
        for (size_t s = 0; same && s < file->shown_count; s++)
          same = strcmp(h->values[i][s], h->columns[s] >= 0 ? values[h->columns[s]] : "?") == 0;
        if (same)
          found = i;
      }
      if (found == h->count) {
        if (h->count == MAX_SHOWN_STATES)
          return false;
        for (size_t s = 0; s < file->shown_count; s++)
          snprintf(h->values[found][s], LF_NAME, "%s",
                   h->columns[s] >= 0 ? values[h->columns[s]] : "?");
        h->satisfies[found] = satisfies;
        h->counts[found] = 0;
        h->count++;
      }
      h->counts[found] += n;
    } else if (strcmp(word, "time") == 0) {
      timed = sscanf(save, "%lf runs %llu threads %d cpus %d pinned %d", seconds, runs, threads,
                     cpus, pinned) == 5;
    }
  }
  return timed;
}

static void print_state(const struct lf_file *file, const struct histogram *h, size_t i) {
  printf("%-8llu %s>", h->counts[i], h->satisfies[i] ? "*" : ":");
  for (size_t s = 0; s < file->shown_count; s++) {
    const char *value = h->values[i][s];
    if (file->shown[s].thread >= 0)
      printf("%d:", file->shown[s].thread);
    printf("%s=%s; ", file->shown[s].name, value[0] == '&' ? value + 1 : value);
  }
  printf("\n");
}

static const char *quantifier_name(enum lf_quantifier q) {
  return q == LF_EXISTS ? "exists" : q == LF_NOT_EXISTS ? "~exists" : "forall";
}

static void judge(struct record *r, const struct lf_file *file) {
  bool some = r->positive > 0, all = r->positive == r->total && r->total > 0;
  r->observation = !some ? "Never" : all ? "Always" : "Sometimes";
  switch (file->result) {
  case LF_RESULT_NONE:
    r->verdict = V_NO_RESULT;
    break;
  case LF_RESULT_NEVER:
    r->verdict = some ? V_FORBIDDEN : V_CONSISTENT;
    break;
  case LF_RESULT_ALWAYS:
    r->verdict = all ? V_CONSISTENT : V_FORBIDDEN;
    break;
  case LF_RESULT_SOMETIMES:
    r->verdict = some && !all ? V_CONSISTENT : V_NOT_SHOWN;
    break;
  }
}

static void run_file(const char *path, const char *directory, const struct run_settings *settings,
                     struct record *r) {
  static struct lf_file file;
  static struct histogram h;
  char error[1024];
  r->path = path;
  r->verdict = V_ERROR;
  snprintf(r->name, sizeof r->name, "%s", path);
  if (!lf_parse_file(path, &file, error, sizeof error)) {
    fprintf(stderr, "%s\n", error);
    return;
  }
  snprintf(r->name, sizeof r->name, "%s", file.name);
  r->result = file.result;
  char source[4096], command[8192];
  snprintf(source, sizeof source, "%s/test.c", directory);
  FILE *out = fopen(source, "w");
  if (!out) {
    fprintf(stderr, "barrierpair-litmus: error: cannot write '%s': %s\n", source, strerror(errno));
    lf_free(&file);
    return;
  }
  lf_emit_run(out, &file);
  fclose(out);
  if (settings->keep) {
    snprintf(command, sizeof command, "cp '%s' '%s/%s.c'", source, settings->keep, file.name);
    run_command(command);
  }
  snprintf(command, sizeof command,
           "cd '%s' && %s -O2 -std=gnu11 -pthread -o test test.c lf_harness.o spin_barrier.o "
           "affinity.o > test.log 2>&1",
           directory, settings->cc);
  if (run_command(command) != 0) {
    snprintf(command, sizeof command, "cat '%s/test.log' >&2", directory);
    run_command(command);
    fprintf(stderr, "%s: error: the converted test does not compile (above)\n", path);
    lf_free(&file);
    return;
  }
  snprintf(command, sizeof command, "'%s/test' %llu %g 1024 16 1024 %d", directory,
           settings->iterations, settings->seconds, settings->pin ? 1 : 0);
  FILE *in = popen(command, "r");
  memset(&h, 0, sizeof h);
  unsigned long long filtered = 0, runs = 0;
  double seconds = 0;
  int threads = 0, cpus = 0, pinned = 0;
  bool read =
      in && read_states(in, &file, &h, &filtered, &seconds, &runs, &threads, &cpus, &pinned);
  int status = in ? pclose(in) : -1;
  if (!read || status != 0) {
    fprintf(stderr, "%s: error: the test program failed (exit status %d)\n", path,
            status == -1 ? -1 : WEXITSTATUS(status));
    lf_free(&file);
    return;
  }
  for (size_t i = 0; i < h.count; i++) {
    r->total += h.counts[i];
    if (h.satisfies[i])
      r->positive += h.counts[i];
  }
  r->rate = seconds > 0 ? (double)runs / seconds : 0;
  judge(r, &file);

  if (file.result != LF_RESULT_NONE)
    printf("Test %s (LKMM says %s, %s:%d)\n", file.name, lf_result_name(file.result), path,
           file.result_line);
  else
    printf("Test %s (%s: no Result: line)\n", file.name, path);
  printf("Histogram (%zu state%s)\n", h.count, h.count == 1 ? "" : "s");
  for (size_t i = 0; i < h.count; i++)
    print_state(&file, &h, i);
  if (filtered)
    printf("Filtered out: %llu\n", filtered);
  printf("Condition %s ", quantifier_name(file.quantifier));
  lf_prop_print(stdout, file.condition);
  printf("\nObservation %s %s %llu %llu\n", file.name, r->observation, r->positive,
         r->total - r->positive);
  printf("Time %s %.3f s, %llu runs, %.3g runs/s, %d threads on %d CPUs%s\n", file.name, seconds,
         runs, r->rate, threads, cpus, pinned ? ", pinned" : "");
  printf("Verdict %s: %s", file.name, verdict_names[r->verdict]);
  if (r->verdict == V_FORBIDDEN)
    printf(": LKMM says %s, this CPU produced %llu such outcome%s in %llu runs",
           lf_result_name(file.result),
           file.result == LF_RESULT_NEVER ? r->positive : r->total - r->positive,
           (file.result == LF_RESULT_NEVER ? r->positive : r->total - r->positive) == 1 ? "" : "s",
           r->total);
  else if (r->verdict == V_NOT_SHOWN)
    printf(": LKMM allows it but it did not show in %llu runs (not the same as forbidden)",
           r->total);
  printf("\n\n");
  lf_free(&file);
}

static int usage_error(const char *message, const char *value) {
  fprintf(stderr, "barrierpair-litmus: ");
  fprintf(stderr, message, value);
  fprintf(stderr, "\n(try --help)\n");
  return EXIT_INPUT;
}

static const char usage[] =
    "usage: barrierpair-litmus [options] FILE.litmus|DIR...\n"
    "\n"
    "Runs herd7 C litmus tests natively: each P<n> a thread, many instances,\n"
    "litmus7's histogram and Observation, and the file's Result: line checked.\n"
    "\n"
    "  --iterations N   instances per test (default 1000000)\n"
    "  --seconds S      time limit per test (default 10)\n"
    "  --affinity auto|none  pin threads to distinct CPUs (default auto)\n"
    "  --cc COMPILER    the C compiler for the converted tests (default: $CC, else cc)\n"
    "  --keep DIR       also write each converted test to DIR/<name>.c\n"
    "\n"
    "Exit status: 0; 1 if an outcome the file's Result: line rules out was seen;\n"
    "2 if a file could not be read, parsed or run.\n";

int lf_runner_main(int argc, char **argv) {
  struct run_settings settings = {.iterations = 1000000, .seconds = 10, .pin = true};
  settings.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
  char **arguments = calloc((size_t)argc, sizeof *arguments);
  int argument_count = 0;
  if (!arguments)
    abort();
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      free(arguments);
      return EXIT_FINE;
    } else if (strcmp(a, "--iterations") == 0) {
      char *end;
      double n = value ? strtod(value, &end) : 0;
      if (!value || *end || n < 1 || n > 1e12 || n != (double)(unsigned long long)n)
        return usage_error("--iterations %s: give a whole number from 1 to 10^12",
                           value ? value : "");
      settings.iterations = (unsigned long long)n;
      i++;
    } else if (strcmp(a, "--seconds") == 0) {
      char *end;
      double s = value ? strtod(value, &end) : 0;
      if (!value || *end || !(s > 0) || s > 86400)
        return usage_error("--seconds %s: give a time above 0 and at most a day",
                           value ? value : "");
      settings.seconds = s;
      i++;
    } else if (strcmp(a, "--affinity") == 0) {
      if (!value || (strcmp(value, "auto") != 0 && strcmp(value, "none") != 0))
        return usage_error("--affinity %s: give 'auto' or 'none'", value ? value : "");
      settings.pin = strcmp(value, "auto") == 0;
      i++;
    } else if (strcmp(a, "--cc") == 0 || strcmp(a, "--keep") == 0) {
      if (!value)
        return usage_error("%s needs a value", a);
      *(strcmp(a, "--cc") == 0 ? &settings.cc : &settings.keep) = value;
      i++;
    } else if (a[0] == '-') {
      return usage_error("unknown option '%s' with litmus files (try --help)", a);
    } else {
      arguments[argument_count++] = argv[i];
    }
  }

  char template[] = "/tmp/barrierpair-litmus.XXXXXX";
  char directory_buffer[1024];
  const char *tmp = getenv("TMPDIR");
  snprintf(directory_buffer, sizeof directory_buffer, "%s/barrierpair-litmus.XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  char *directory = mkdtemp(directory_buffer);
  if (!directory)
    directory = mkdtemp(template);
  if (!directory) {
    fprintf(stderr, "barrierpair-litmus: error: cannot make a temporary directory: %s\n",
            strerror(errno));
    free(arguments);
    return EXIT_INPUT;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  int status = EXIT_FINE;
  struct record *records = NULL;
  size_t record_count = 0;
  if (!prepare(directory, &settings)) {
    status = EXIT_INPUT;
  } else {
    for (int a = 0; a < argument_count; a++) {
      char **paths;
      long count = lf_collect(arguments[a], &paths);
      if (count < 0) {
        status = EXIT_INPUT;
        continue;
      }
      records = realloc(records, (record_count + (size_t)count) * sizeof *records);
      if (!records)
        abort();
      for (long i = 0; i < count; i++) {
        struct record *r = &records[record_count++];
        memset(r, 0, sizeof *r);
        run_file(paths[i], directory, &settings, r);
        r->path = NULL; /* freed below */
      }
      lf_collect_free(paths, count);
    }
  }
  size_t tally[V_ERROR + 1] = {0};
  for (size_t i = 0; i < record_count; i++)
    tally[records[i].verdict]++;
  if (record_count > 1) {
    printf("%-40s %-9s %-9s %12s %10s  %s\n", "test", "LKMM", "observed", "positive", "runs/s",
           "verdict");
    for (size_t i = 0; i < record_count; i++) {
      const struct record *r = &records[i];
      if (r->verdict == V_ERROR)
        printf("%-40s %-9s %-9s %12s %10s  %s\n", r->name, lf_result_name(r->result), "-", "-", "-",
               verdict_names[r->verdict]);
      else
        printf("%-40s %-9s %-9s %12llu %10.3g  %s\n", r->name, lf_result_name(r->result),
               r->observation, r->positive, r->rate, verdict_names[r->verdict]);
    }
    printf("\n%zu tests: %zu consistent with their Result: line, %zu allowed but not shown, %zu "
           "without a Result: line, %zu errors, %zu with a forbidden outcome seen\n",
           record_count, tally[V_CONSISTENT], tally[V_NOT_SHOWN], tally[V_NO_RESULT],
           tally[V_ERROR], tally[V_FORBIDDEN]);
  }
  if (tally[V_ERROR] && status == EXIT_FINE)
    status = EXIT_INPUT;
  if (tally[V_FORBIDDEN])
    status = EXIT_FORBIDDEN;
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", directory);
  run_command(command);
  free(records);
  free(arguments);
  return status;
}
