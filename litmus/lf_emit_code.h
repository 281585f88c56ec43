/* The threads' statements and expressions as C, shared by lf_emit_check.c
 * and lf_emit_run.c: they differ only in how a shared variable, a
 * dereference and a register's type are written. */
#ifndef BARRIERPAIR_LITMUS_LF_EMIT_CODE_H
#define BARRIERPAIR_LITMUS_LF_EMIT_CODE_H

#include "lf_file.h"

#include <stdio.h>

struct lf_style {
  bool run; /* native runs: shared variables are v_<name>[i], values long */
  /* Set: each statement goes on the line it has in the litmus file (the
   * analyzer reports spelling lines), and this is the line written so far. */
  int *line;
};

void lf_emit_expr(FILE *out, const struct lf_style *style, const struct lf_thread *thread,
                  const struct lf_expr *e);
void lf_emit_stmt(FILE *out, const struct lf_style *style, const struct lf_thread *thread,
                  const struct lf_stmt *s, int depth);
/* Registers, all declared at the top of the function. */
void lf_emit_registers(FILE *out, const struct lf_style *style, const struct lf_thread *thread);

#endif
