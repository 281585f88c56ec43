/* C from a parsed litmus file, for the analyzer and for native runs. */
#ifndef BARRIERPAIR_LITMUS_LF_EMIT_H
#define BARRIERPAIR_LITMUS_LF_EMIT_H

#include "lf_file.h"

#include <stdio.h>

/* The prelude both kinds of output include, by these names: the kernel
 * spellings as the analyzer's primitive table knows them, and as the native
 * runtime runs them (lf_embedded.c, from lf_check_prelude.h and
 * lf_runtime.h). */
#define LF_CHECK_PRELUDE_NAME "barrierpair-litmus-kernel.h"
#define LF_RUNTIME_NAME "lf_runtime.h"

/* Each P<n> as `void P<n>(void)` over globals named as the file names them,
 * with #line directives so that findings point into the litmus file. */
void lf_emit_check(FILE *out, const struct lf_file *file);

/* A program for lf_harness.c: each P<n> over instance slot i of arrays of
 * longs, the registers handed back per instance. */
void lf_emit_run(FILE *out, const struct lf_file *file);

/* The embedded files: name and text, ended by a {NULL, NULL} entry. */
struct lf_embedded_file {
  const char *name;
  const char *text;
};
extern const struct lf_embedded_file lf_embedded_files[];
const char *lf_embedded(const char *name);

/* Writes each embedded file into `directory`; false with a message on
 * stderr. */
bool lf_write_embedded(const char *directory);

#endif
