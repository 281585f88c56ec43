/* barrierpair: the command-line driver.
 *
 *   barrierpair check [options] [-p <build-dir>] [files...] [-- <compiler args>]
 *   barrierpair link [options] <sites-dir>
 *   barrierpair explain <rule>
 *
 * `check` lowers every translation unit (driver.cpp), pools their programs
 * into one engine and analyses the whole program once; `link` does the same
 * with the site files the plugin wrote during a build. Exit status: 0 no
 * findings, 1 findings, 2 a usage or input error. */
#define _POSIX_C_SOURCE 200809L

#include "bp_report.h"
#include "changed_lines.h"
#include "driver.h"
#include "litmus_check.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BARRIERPAIR_VERSION
#define BARRIERPAIR_VERSION "0"
#endif

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_ERROR = 2 };

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF, FORMAT_GITLAB } format;

typedef struct {
  const char *build_dir;
  const char **files;
  size_t file_count;
  const char **fixed_args;
  size_t fixed_count;
  bool fixed;
  unsigned jobs;
  format output_format;
  const char *output;
  const char *baseline;
  const char *write_baseline;
  const char *comments;      /* --comments <file> */
  const char *changed_since; /* a git revision, or NULL */
  const char **primitive_files;
  size_t primitive_file_count;
  const char **overlaid_files; /* --contents <file>=<contents-file> */
  const char **contents_files;
  size_t overlay_count;
  bp_options analysis;
} options;

static const char usage_text[] =
    "usage: barrierpair check [options] [-p <build-dir>] [<file>...] [-- <compiler args>]\n"
    "       barrierpair link [options] <sites-dir>\n"
    "       barrierpair explain <rule>\n"
    "\n"
    "check: analyse the whole program: every file of <build-dir>/compile_commands.json\n"
    "       (or the files named), pooled into one program, across translation units.\n"
    "link:  the same over the site files the plugin wrote during a build with\n"
    "       -fplugin-arg-barrierpair-sites-dir=<sites-dir>.\n"
    "explain: print a rule's documentation and the scenario rows it covers.\n"
    "\n"
    "options:\n"
    "  -p <dir>                  the build directory that holds compile_commands.json\n"
    "  -j, --jobs <n>            translation units analysed in parallel (default: all cores)\n"
    "  --format text|json|sarif|gitlab\n"
    "                            output format (default: text, as clang prints warnings;\n"
    "                            gitlab: a GitLab code quality report)\n"
    "  -o, --output <file>       write the report to <file> instead of standard output\n"
    "  --baseline <file>         do not report the findings recorded in <file>\n"
    "  --write-baseline <file>   record every current finding in <file> (exit status 0)\n"
    "  --comments <file>         write the kernel-style \"pairs with\" comments beside barriers\n"
    "                            to <file> (JSON): the function each names, and whether the\n"
    "                            analysis pairs the barrier with it\n"
    "  --changed-since <rev>     only the findings whose line, or a partner's line, changed\n"
    "                            since the git revision <rev> (a pull request's base)\n"
    "  --disable <rule>          turn a rule off (may be repeated)\n"
    "  --model=article|lkmm      where the article is stricter than the Linux-kernel\n"
    "                            memory model (rmb and wmb on a cycle with a full\n"
    "                            barrier), follow LKMM with 'lkmm'\n"
    "  --strict-marking          missing-access-once flags every unmarked access of a\n"
    "                            paired site, payloads and private reads included\n"
    "  --beta                    also the checks not yet proven quiet on real code\n"
    "                            (missing-barrier on a cycle of three or more functions;\n"
    "                            scenario 0, IRIW, which the article ignores; the rows\n"
    "                            the pair does not see: a third CPU stores, or the outcome\n"
    "                            is a final value, all but 3, 5, 10 and 12;\n"
    "                            transitive-weak-barrier on a cycle that reaches a field\n"
    "                            through a pointer)\n"
    "  --primitives <file>       add the barriers and accesses <file> declares (may be repeated)\n"
    "  --contents <file>=<text>  analyse <file> as if it held the contents of the file <text>\n"
    "                            (an editor's unsaved buffer; may be repeated)\n"
    "  -h, --help                this help;  --version  the version\n"
    "\n"
    "exit status: 0 no findings, 1 findings, 2 a usage or input error\n";

static int usage_error(const char *format_text, const char *argument) {
  fprintf(stderr, "barrierpair: error: ");
  fprintf(stderr, format_text, argument);
  fprintf(stderr, "\n(see barrierpair --help)\n");
  return EXIT_ERROR;
}

static char *rule_list(void) {
  static char list[512];
  size_t n = 0;
  for (int rule = 0; rule < BP_RULE_COUNT; rule++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", rule ? ", " : "",
                          bp_rule_name((bp_rule)rule));
  return list;
}

/* The value of an option written `--name value` or `--name=value`. */
static const char *option_value(int argc, char **argv, int *i, const char *name,
                                const char *short_name, bool *matched) {
  const char *argument = argv[*i];
  size_t length = strlen(name);
  *matched = false;
  if (strncmp(argument, name, length) == 0 && argument[length] == '=') {
    *matched = true;
    return argument + length + 1;
  }
  if (strcmp(argument, name) == 0 || (short_name && strcmp(argument, short_name) == 0)) {
    *matched = true;
    if (*i + 1 >= argc)
      return NULL;
    return argv[++*i];
  }
  /* a one-letter option with its value attached, as compilers take them:
   * -j1, -pbuild */
  const char *letter = short_name ? short_name : name;
  if (strlen(letter) == 2 && letter[0] == '-' && letter[1] != '-' &&
      strncmp(argument, letter, 2) == 0 && argument[2] != '\0') {
    *matched = true;
    return argument + 2;
  }
  return NULL;
}

/* Parses the options of check and link; positional arguments go to
 * options->files. Returns -1 when fine, else an exit status. */
static int parse_options(int argc, char **argv, int first, options *o) {
  memset(o, 0, sizeof *o);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (unsigned)cores : 1;
  o->files = calloc((size_t)argc + 1, sizeof *o->files);
  o->primitive_files = calloc((size_t)argc + 1, sizeof *o->primitive_files);
  o->overlaid_files = calloc((size_t)argc + 1, sizeof *o->overlaid_files);
  o->contents_files = calloc((size_t)argc + 1, sizeof *o->contents_files);
  if (!o->files || !o->primitive_files || !o->overlaid_files || !o->contents_files)
    abort();
  for (int i = first; i < argc; i++) {
    const char *argument = argv[i];
    bool matched;
    const char *value;
    if (strcmp(argument, "--") == 0) {
      o->fixed = true;
      o->fixed_args = (const char **)argv + i + 1;
      o->fixed_count = (size_t)(argc - i - 1);
      break;
    }
    if (strcmp(argument, "-h") == 0 || strcmp(argument, "--help") == 0) {
      fputs(usage_text, stdout);
      return EXIT_CLEAN;
    }
    if ((value = option_value(argc, argv, &i, "-p", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a build directory", argument);
      o->build_dir = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--build-dir", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a build directory", argument);
      o->build_dir = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--jobs", "-j", &matched)) || matched) {
      char *end;
      long jobs = value ? strtol(value, &end, 10) : 0;
      if (!value || *end || jobs < 1 || jobs > 1024)
        return usage_error("--jobs needs a number from 1 to 1024, not '%s'", value ? value : "");
      o->jobs = (unsigned)jobs;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--format", NULL, &matched)) || matched) {
      if (value && strcmp(value, "text") == 0)
        o->output_format = FORMAT_TEXT;
      else if (value && strcmp(value, "json") == 0)
        o->output_format = FORMAT_JSON;
      else if (value && strcmp(value, "sarif") == 0)
        o->output_format = FORMAT_SARIF;
      else if (value && strcmp(value, "gitlab") == 0)
        o->output_format = FORMAT_GITLAB;
      else
        return usage_error("--format is text, json, sarif or gitlab, not '%s'", value ? value : "");
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--output", "-o", &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a file", argument);
      o->output = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--baseline", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a file", argument);
      o->baseline = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--write-baseline", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a file", argument);
      o->write_baseline = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--comments", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a file", argument);
      o->comments = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--changed-since", NULL, &matched)) || matched) {
      if (!value || !value[0])
        return usage_error("%s needs a git revision", argument);
      o->changed_since = value;
      continue;
    }
    if (strcmp(argument, "--strict-marking") == 0) {
      o->analysis.strict_marking = true;
      continue;
    }
    if (strcmp(argument, "--beta") == 0) {
      o->analysis.beta = true;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--model", NULL, &matched)) || matched) {
      if (!value || (strcmp(value, "lkmm") != 0 && strcmp(value, "article") != 0))
        return usage_error("--model is 'article' (the default) or 'lkmm', not '%s'",
                           value ? value : "");
      o->analysis.model_lkmm = strcmp(value, "lkmm") == 0;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--disable", NULL, &matched)) || matched) {
      int rule = value ? bp_rule_find(value) : -1;
      if (rule < 0) {
        fprintf(stderr, "barrierpair: error: unknown rule '%s'; rules: %s\n", value ? value : "",
                rule_list());
        return EXIT_ERROR;
      }
      o->analysis.disabled[rule] = true;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--primitives", NULL, &matched)) || matched) {
      if (!value)
        return usage_error("%s needs a primitive file", argument);
      o->primitive_files[o->primitive_file_count++] = value;
      continue;
    }
    if ((value = option_value(argc, argv, &i, "--contents", NULL, &matched)) || matched) {
      const char *equals = value ? strchr(value, '=') : NULL;
      if (!equals || equals == value || !equals[1])
        return usage_error("--contents needs <file>=<contents-file>, not '%s'", value ? value : "");
      char *file = strndup(value, (size_t)(equals - value));
      if (!file)
        abort();
      o->overlaid_files[o->overlay_count] = file;
      o->contents_files[o->overlay_count++] = equals + 1;
      continue;
    }
    if (argument[0] == '-' && argument[1])
      return usage_error("unknown option '%s'", argument);
    o->files[o->file_count++] = argument;
  }
  return -1;
}

/* Adds the primitive files to the table before any translation unit is
 * lowered (on worker threads that then only read it); false after printing
 * their errors. */
static bool load_primitive_files(const options *o) {
  enum { max_errors = 20 };
  bool loaded = true;
  for (size_t i = 0; i < o->primitive_file_count; i++) {
    const char *path = o->primitive_files[i];
    bp_primitive_error errors[max_errors];
    size_t count = bp_primitives_load(path, errors, max_errors);
    for (size_t e = 0; e < count && e < max_errors; e++) {
      if (errors[e].line == 0)
        fprintf(stderr, "barrierpair: error: %s\n", errors[e].message);
      else
        fprintf(stderr, "%s:%u:%u: error: %s\n", path, (unsigned)errors[e].line,
                (unsigned)errors[e].column, errors[e].message);
    }
    if (count > max_errors)
      fprintf(stderr, "barrierpair: error: %zu more errors in '%s'\n", count - max_errors, path);
    if (count)
      loaded = false;
  }
  return loaded;
}

static void free_options(options *o) {
  for (size_t i = 0; i < o->overlay_count; i++)
    free((char *)o->overlaid_files[i]);
  free(o->overlaid_files);
  free(o->contents_files);
  free(o->files);
  free(o->primitive_files);
}

static char *current_directory(void) {
  size_t size = 256;
  for (;;) {
    char *buffer = malloc(size);
    if (!buffer)
      abort();
    if (getcwd(buffer, size))
      return buffer;
    free(buffer);
    if (errno != ERANGE)
      return NULL;
    size *= 2;
  }
}

/* `paths` made absolute against `cwd` (malloc()ed), as the engine records
 * files. */
static char **absolute_paths(const char *cwd, const char *const *paths, size_t count) {
  char **result = calloc(count + 1, sizeof *result);
  if (!result)
    abort();
  for (size_t i = 0; i < count; i++) {
    const char *path = paths[i];
    while (path[0] == '.' && path[1] == '/')
      path += 2;
    size_t size = strlen(cwd) + strlen(path) + 2;
    result[i] = malloc(size);
    if (!result[i])
      abort();
    if (path[0] == '/' || !cwd)
      snprintf(result[i], size, "%s", path);
    else
      snprintf(result[i], size, "%s/%s", cwd, path);
  }
  return result;
}

static bool event_changed(const bp_engine *engine, const changed_lines *lines, uint32_t event) {
  const bp_event *e = event == BP_NO_EVENT ? NULL : bp_event_get(engine, event);
  return e && e->location.line &&
         changed_lines_has(lines, bp_file_path(engine, e->location.file), e->location.line);
}

static bool side_changed(const bp_engine *engine, const changed_lines *lines, const bp_side *side) {
  return side->function != BP_NO_FUNCTION &&
         (event_changed(engine, lines, side->first) || event_changed(engine, lines, side->second) ||
          event_changed(engine, lines, side->barrier));
}

/* --changed-since: keeps the findings whose warned line, or a line of their
 * own side or of a partner, changed; returns how many. */
static size_t keep_changed(const bp_engine *engine, const changed_lines *lines,
                           bp_finding *findings, size_t count) {
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    const bp_finding *f = &findings[i];
    bool changed = event_changed(engine, lines, f->at) || side_changed(engine, lines, &f->side) ||
                   side_changed(engine, lines, &f->partner);
    for (uint32_t k = 1; k < f->chain_length && k < BP_CHAIN_MAX && !changed; k++)
      changed = side_changed(engine, lines, &f->chain[k]);
    if (changed)
      findings[kept++] = *f;
  }
  return kept;
}

/* Analyses the merged program and writes the report; returns the exit
 * status. */
static int analyse_and_report(const options *o, bp_engine *engine, bool input_error) {
  bp_finding *findings = NULL;
  bp_options analysis = o->analysis;
  bp_comment_log *comments = o->comments ? bp_comment_log_create() : NULL;
  if (comments) {
    analysis.comment_handler = bp_comment_log_add;
    analysis.comment_context = comments;
  }
  size_t count = bp_analyze(engine, &analysis, &findings);
  char *cwd = current_directory();
  bp_report_sort(engine, cwd, findings, count);

  int status = input_error ? EXIT_ERROR : EXIT_CLEAN;
  char error[512];
  if (comments && !bp_comment_log_write(comments, engine, cwd, o->comments)) {
    fprintf(stderr, "barrierpair: error: cannot write '%s'\n", o->comments);
    status = EXIT_ERROR;
  }
  bp_comment_log_free(comments);
  if (o->write_baseline) {
    if (!bp_baseline_write(o->write_baseline, engine, cwd, findings, count, error, sizeof error)) {
      fprintf(stderr, "barrierpair: error: %s\n", error);
      status = EXIT_ERROR;
    } else {
      fprintf(stderr, "barrierpair: recorded %zu finding%s in %s\n", count, count == 1 ? "" : "s",
              o->write_baseline);
    }
  }
  if (o->baseline) {
    bp_baseline *baseline = bp_baseline_read(o->baseline, error, sizeof error);
    if (!baseline) {
      fprintf(stderr, "barrierpair: error: %s\n", error);
      free(findings);
      free(cwd);
      return EXIT_ERROR;
    }
    count = bp_baseline_apply(baseline, engine, cwd, findings, count);
    bp_baseline_free(baseline);
  }
  if (o->changed_since) {
    changed_lines *lines = changed_lines_since(o->changed_since, error, sizeof error);
    if (!lines) {
      fprintf(stderr, "barrierpair: error: %s\n", error);
      free(findings);
      free(cwd);
      return EXIT_ERROR;
    }
    count = keep_changed(engine, lines, findings, count);
    changed_lines_free(lines);
  }

  FILE *out = stdout;
  if (o->output) {
    out = fopen(o->output, "w");
    if (!out) {
      fprintf(stderr, "barrierpair: error: cannot write '%s': %s\n", o->output, strerror(errno));
      free(findings);
      free(cwd);
      return EXIT_ERROR;
    }
  }
  char **overlaid = absolute_paths(cwd, o->overlaid_files, o->overlay_count);
  bp_report report = {
      engine,          findings, count, cwd, (const char *const *)overlaid, o->contents_files,
      o->overlay_count};
  bool written = o->output_format == FORMAT_JSON     ? bp_report_json(out, &report)
                 : o->output_format == FORMAT_SARIF  ? bp_report_sarif(out, &report)
                 : o->output_format == FORMAT_GITLAB ? bp_report_gitlab(out, &report)
                                                     : bp_report_text(out, &report);
  if (out != stdout && fclose(out) != 0)
    written = false;
  for (size_t i = 0; i < o->overlay_count; i++)
    free(overlaid[i]);
  free(overlaid);
  if (!written) {
    fprintf(stderr, "barrierpair: error: cannot write the report\n");
    status = EXIT_ERROR;
  }
  if (status == EXIT_CLEAN && count && !o->write_baseline)
    status = EXIT_FINDINGS;
  free(findings);
  free(cwd);
  return status;
}

static int command_check(int argc, char **argv) {
  options o;
  int status = parse_options(argc, argv, 2, &o);
  if (status >= 0) {
    free_options(&o);
    return status;
  }
  if (!load_primitive_files(&o)) {
    free_options(&o);
    return EXIT_ERROR;
  }
  if (bp_litmus_wanted(o.files, o.file_count)) { /* herd7 C litmus files */
    status = bp_litmus_check(o.files, o.file_count, &o.analysis);
    free_options(&o);
    return status;
  }
  bp_check_request request = {o.build_dir,      o.files,          o.file_count,   o.fixed_args,
                              o.fixed_count,    o.fixed,          o.jobs,         isatty(2) == 1,
                              o.overlaid_files, o.contents_files, o.overlay_count};
  bp_engine *engine = bp_engine_create();
  bp_check_summary summary;
  bp_check_lower(&request, engine, &summary);
  if (summary.input_error && summary.units == 0) {
    bp_engine_destroy(engine);
    free_options(&o);
    return EXIT_ERROR;
  }
  status = analyse_and_report(&o, engine, summary.input_error);
  bp_engine_destroy(engine);
  free_options(&o);
  return status;
}

static int compare_names(const void *left, const void *right) {
  return strcmp(*(char *const *)left, *(char *const *)right);
}

static int command_link(int argc, char **argv) {
  options o;
  int status = parse_options(argc, argv, 2, &o);
  if (status >= 0) {
    free_options(&o);
    return status;
  }
  if (o.file_count != 1 || o.fixed || o.build_dir) {
    free_options(&o);
    return usage_error("%s", "link takes one directory of site files");
  }
  if (!load_primitive_files(&o)) {
    free_options(&o);
    return EXIT_ERROR;
  }
  if (o.overlay_count) {
    free_options(&o);
    return usage_error("%s", "--contents is an option of check: link reads site files");
  }
  const char *directory = o.files[0];
  DIR *dir = opendir(directory);
  if (!dir) {
    fprintf(stderr, "barrierpair: error: cannot read the sites directory '%s': %s\n", directory,
            strerror(errno));
    free_options(&o);
    return EXIT_ERROR;
  }
  char **names = NULL;
  size_t count = 0, capacity = 0;
  for (struct dirent *entry; (entry = readdir(dir));) {
    size_t length = strlen(entry->d_name);
    if (length < 7 || strcmp(entry->d_name + length - 6, ".sites") != 0)
      continue;
    if (count == capacity) {
      capacity = capacity ? capacity * 2 : 64;
      names = realloc(names, capacity * sizeof *names);
      if (!names)
        abort();
    }
    names[count] = malloc(strlen(directory) + length + 2);
    if (!names[count])
      abort();
    sprintf(names[count++], "%s/%s", directory, entry->d_name);
  }
  closedir(dir);
  /* By name, never by the order the build wrote them. */
  qsort(names, count, sizeof *names, compare_names);

  bp_engine *engine = bp_engine_create();
  bool input_error = false;
  size_t read = 0;
  for (size_t i = 0; i < count; i++) {
    FILE *file = fopen(names[i], "r");
    char error[512];
    if (!file) {
      fprintf(stderr, "barrierpair: error: cannot read '%s': %s\n", names[i], strerror(errno));
      input_error = true;
    } else if (!bp_program_read(engine, file, names[i], error, sizeof error)) {
      fprintf(stderr, "barrierpair: error: %s\n", error);
      input_error = true;
    } else {
      read++;
    }
    if (file)
      fclose(file);
    free(names[i]);
  }
  free(names);
  if (count == 0) {
    fprintf(stderr,
            "barrierpair: error: no site files (*.sites) in '%s': build with clang and "
            "-fplugin-arg-barrierpair-sites-dir=%s first\n",
            directory, directory);
    input_error = true;
  }
  if (read == 0) {
    bp_engine_destroy(engine);
    free_options(&o);
    return EXIT_ERROR;
  }
  status = analyse_and_report(&o, engine, input_error);
  bp_engine_destroy(engine);
  free_options(&o);
  return status;
}

/* The scenario rows a rule covers. */
static bool rule_covers(const char *rule, const bp_scenario *row) {
  if (strcmp(rule, "unpaired-barrier") == 0 || strcmp(rule, "broken-contract") == 0)
    return false;
  if (strcmp(rule, "store-after-publication") == 0)
    return row->number == 12; /* message passing, its writer */
  if (strcmp(rule, "transitive-weak-barrier") == 0)
    return row->code[2][0] || row->code[3][0]; /* rows with a third CPU */
  return true;
}

static const char *barrier_name(char letter) {
  return letter == 'r' ? "cmm_smp_rmb()" : letter == 'w' ? "cmm_smp_wmb()" : "cmm_smp_mb()";
}

static int command_explain(int argc, char **argv) {
  if (argc != 3 || argv[2][0] == '-') {
    if (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
      printf("usage: barrierpair explain <rule>\nrules: %s\n", rule_list());
      return EXIT_CLEAN;
    }
    fprintf(stderr, "usage: barrierpair explain <rule>\nrules: %s\n", rule_list());
    return EXIT_ERROR;
  }
  const char *rule = argv[2];
  if (strncmp(rule, "barrierpair-", 12) == 0)
    rule += 12;
  if (bp_rule_find(rule) < 0) {
    fprintf(stderr, "barrierpair: error: unknown rule '%s'; rules: %s\n", argv[2], rule_list());
    return EXIT_ERROR;
  }
  const char *doc = bp_rule_doc(rule);
  if (doc) {
    fputs(doc, stdout);
    if (doc[0] && doc[strlen(doc) - 1] != '\n')
      fputc('\n', stdout);
  } else {
    printf("# %s\n\n(docs/rules/%s.md was not there when barrierpair was built.)\n", rule, rule);
  }
  printf("\n## Scenario rows\n\n");
  size_t covered = 0;
  for (int n = 0; n < BP_SCENARIO_COUNT; n++)
    covered += rule_covers(rule, bp_scenario_get(n));
  if (covered == 0 && strcmp(rule, "broken-contract") == 0) {
    printf("%s covers no row of the table: the partner of a contract's barrier is the "
           "function's caller, which the contract stands for.\n",
           rule);
    return EXIT_CLEAN;
  }
  if (covered == 0) {
    printf("%s covers no row of the table: it fires on a barrier that no row pairs.\n", rule);
    return EXIT_CLEAN;
  }
  if (strcmp(rule, "transitive-weak-barrier") == 0)
    printf("The rows with a third CPU, where ordering must carry across CPUs:\n\n");
  else if (covered == BP_SCENARIO_COUNT)
    printf("All %d rows of the menagerie:\n\n", BP_SCENARIO_COUNT);
  printf("| # | name | CPU 0 | CPU 1 | CPU 2 | CPU 3 | forbidden | weakest CPU 0 | weakest CPU 1 "
         "|\n|---|---|---|---|---|---|---|---|---|\n");
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    const bp_scenario *row = bp_scenario_get(n);
    if (!rule_covers(rule, row))
      continue;
    printf("| %d | %s |", n, row->name);
    for (int cpu = 0; cpu < 4; cpu++)
      printf(row->code[cpu][0] ? " `%s` |" : "%s |", row->code[cpu]);
    printf(" `%s` | `%s` | `%s` |\n", row->bug_on, barrier_name(row->barrier[0]),
           barrier_name(row->barrier[1]));
  }
  return EXIT_CLEAN;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_ERROR;
  }
  const char *command = argv[1];
  if (strcmp(command, "check") == 0)
    return command_check(argc, argv);
  if (strcmp(command, "link") == 0)
    return command_link(argc, argv);
  if (strcmp(command, "explain") == 0)
    return command_explain(argc, argv);
  if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 ||
      strcmp(command, "help") == 0) {
    fputs(usage_text, stdout);
    return EXIT_CLEAN;
  }
  if (strcmp(command, "--version") == 0) {
    printf("barrierpair %s (LLVM %s)\n", BARRIERPAIR_VERSION, BARRIERPAIR_LLVM_VERSION_STRING);
    return EXIT_CLEAN;
  }
  fprintf(stderr, "barrierpair: error: unknown command '%s'\n\n%s", command, usage_text);
  return EXIT_ERROR;
}
