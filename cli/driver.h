/* The front end of `barrierpair check`: reads the compilation database,
 * lowers each translation unit with the plugin's lowering on worker threads,
 * and merges their programs into one engine in database order. C interface,
 * so the rest of the driver is C. */
#ifndef BARRIERPAIR_CLI_DRIVER_H
#define BARRIERPAIR_CLI_DRIVER_H

#include "barrierpair/barrierpair.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *build_dir;    /* -p: holds compile_commands.json; NULL when none */
  const char *const *files; /* files named on the command line */
  size_t file_count;
  const char *const *fixed_args; /* compiler arguments after `--` */
  size_t fixed_count;
  bool fixed;    /* `--` was given */
  unsigned jobs; /* worker threads, at least 1 */
  bool progress; /* show files done / total on stderr */
  /* --contents: each overlaid file is analysed with the text of its
   * contents file instead of what is on disk (an editor's unsaved buffer). */
  const char *const *overlaid_files;
  const char *const *contents_files;
  size_t overlay_count;
} bp_check_request;

typedef struct {
  size_t units;     /* translation units analysed */
  size_t failed;    /* translation units that did not compile */
  size_t skipped;   /* database entries that are not C, skipped */
  bool input_error; /* a usage or input error: exit status 2 */
} bp_check_summary;

/* Lowers and merges into `engine`; every error is printed to stderr. */
void bp_check_lower(const bp_check_request *request, bp_engine *engine, bp_check_summary *summary);

#ifdef __cplusplus
}
#endif

#endif
