/* See lf_emit_code.h. */
#include "lf_emit_code.h"

#include <string.h>

/* Starts a statement: on a line of its own, indented; or, when aligning,
 * on the litmus file's line (after what is already there if it is passed). */
static void begin(FILE *out, const struct lf_style *style, int line, int depth) {
  if (!style->line) {
    for (int i = 0; i < depth; i++)
      fputs("  ", out);
    return;
  }
  if (*style->line >= line) {
    fputc(' ', out);
    return;
  }
  while (*style->line < line) {
    fputc('\n', out);
    ++*style->line;
  }
  for (int i = 0; i < depth; i++)
    fputs("  ", out);
}

static void end(FILE *out, const struct lf_style *style) {
  if (!style->line)
    fputc('\n', out);
}

void lf_emit_expr(FILE *out, const struct lf_style *style, const struct lf_thread *thread,
                  const struct lf_expr *e) {
  switch (e->kind) {
  case LF_NUMBER:
    fprintf(out, "%ld", e->value);
    return;
  case LF_NAME_REF:
    if (lf_find_param(thread, e->name))
      fprintf(out, style->run ? "(&v_%s[i])" : "(&%s)", e->name); /* the pointer parameter */
    else
      fputs(e->name, out);
    return;
  case LF_DEREF:
    if (e->left->kind == LF_NAME_REF && lf_find_param(thread, e->left->name)) {
      fprintf(out, style->run ? "v_%s[i]" : "%s", e->left->name); /* the shared variable */
      return;
    }
    fputs(style->run ? "(*(volatile long *)(" : "(*(", out);
    lf_emit_expr(out, style, thread, e->left);
    fputs("))", out);
    return;
  case LF_ADDRESS:
    fputs("(&", out);
    lf_emit_expr(out, style, thread, e->left);
    fputs(")", out);
    return;
  case LF_UNARY:
    fprintf(out, "(%c", e->op[0]);
    lf_emit_expr(out, style, thread, e->left);
    fputs(")", out);
    return;
  case LF_BINARY:
    fputs("(", out);
    lf_emit_expr(out, style, thread, e->left);
    fprintf(out, " %s ", e->op);
    lf_emit_expr(out, style, thread, e->right);
    fputs(")", out);
    return;
  case LF_CALL:
    fprintf(out, "%s(", e->name);
    for (int i = 0; i < e->arg_count; i++) {
      if (i)
        fputs(", ", out);
      lf_emit_expr(out, style, thread, e->args[i]);
    }
    fputs(")", out);
    return;
  }
}

void lf_emit_stmt(FILE *out, const struct lf_style *style, const struct lf_thread *thread,
                  const struct lf_stmt *s, int depth) {
  switch (s->kind) {
  case LF_DECLARE:
  case LF_ASSIGN:
    if (!s->expr)
      return; /* declared at the top of the function */
    begin(out, style, s->line, depth);
    fprintf(out, "%s = %s", s->name, style->run ? "(long)" : "");
    lf_emit_expr(out, style, thread, s->expr);
    fputs(";", out);
    end(out, style);
    return;
  case LF_EVAL:
    begin(out, style, s->line, depth);
    lf_emit_expr(out, style, thread, s->expr);
    fputs(";", out);
    end(out, style);
    return;
  case LF_IF:
    begin(out, style, s->line, depth);
    fputs("if (", out);
    lf_emit_expr(out, style, thread, s->expr);
    fputs(") {", out);
    end(out, style);
    lf_emit_stmt(out, style, thread, s->then, depth + 1);
    begin(out, style, -1, depth);
    fputs("}", out);
    if (s->other) {
      fputs(" else {", out);
      end(out, style);
      lf_emit_stmt(out, style, thread, s->other, depth + 1);
      begin(out, style, -1, depth);
      fputs("}", out);
    }
    end(out, style);
    return;
  case LF_BLOCK:
    for (size_t i = 0; i < s->body_count; i++)
      lf_emit_stmt(out, style, thread, s->body[i], depth);
    return;
  }
}

void lf_emit_registers(FILE *out, const struct lf_style *style, const struct lf_thread *thread) {
  for (size_t i = 0; i < thread->register_count; i++) {
    const struct lf_var *r = &thread->registers[i];
    if (style->run) {
      fprintf(out, "  long %s = 0;\n", r->name);
    } else {
      size_t n = strlen(r->type);
      fprintf(out, "  %s%s%s = 0;\n", r->type, n && r->type[n - 1] == '*' ? "" : " ", r->name);
    }
  }
}
