/* See lf_emit.h: a litmus file as a program for lf_harness.c. Shared
 * variable x is the array v_x[], one slot per instance (instance k at slot
 * i = k * stride, as the scenario runner lays out x and y); thread n's
 * register r is handed back in n_r[k]. */
#include "lf_emit.h"
#include "lf_emit_code.h"

static void emit_thread(FILE *out, const struct lf_thread *thread) {
  struct lf_style style = {.run = true};
  for (size_t r = 0; r < thread->register_count; r++)
    fprintf(out, "static long out%d_%s[LF_MAX_INSTANCES];\n", thread->number,
            thread->registers[r].name);
  fprintf(out, "static void P%d(size_t i, size_t k) {\n", thread->number);
  lf_emit_registers(out, &style, thread);
  lf_emit_stmt(out, &style, thread, thread->body, 1);
  for (size_t r = 0; r < thread->register_count; r++)
    fprintf(out, "  out%d_%s[k] = %s;\n", thread->number, thread->registers[r].name,
            thread->registers[r].name);
  fprintf(out, "  (void)i;\n}\n\n");
}

void lf_emit_run(FILE *out, const struct lf_file *file) {
  fprintf(out, "/* %s, converted from %s by barrierpair-litmus */\n", file->name, file->path);
  fprintf(out, "#include \"%s\"\n\n", LF_RUNTIME_NAME);
  for (size_t v = 0; v < file->var_count; v++)
    fprintf(out, "static long v_%s[LF_SLOTS];\n", file->vars[v].name);
  fputs("\n", out);
  for (size_t t = 0; t < file->thread_count; t++)
    emit_thread(out, &file->threads[t]);

  fputs("static void init(size_t i) {\n", out);
  for (size_t v = 0; v < file->var_count; v++) {
    const struct lf_var *var = &file->vars[v];
    if (var->points_to[0])
      fprintf(out, "  v_%s[i] = (long)&v_%s[i];\n", var->name, var->points_to);
    else
      fprintf(out, "  v_%s[i] = %ldL;\n", var->name, var->value);
  }
  fputs("}\n\n", out);

  /* A pointer to a shared variable of the same instance reads as its name. */
  fputs("static long canonical(long value, size_t i) {\n", out);
  for (size_t v = 0; v < file->var_count; v++)
    fprintf(out, "  if (value == (long)&v_%s[i])\n    return LF_RUN_POINTER_TAG + %zu;\n",
            file->vars[v].name, v);
  fputs("  return value;\n}\n\n", out);

  fputs("static void state(size_t i, size_t k, long *out) {\n", out);
  int column = 0;
  for (size_t t = 0; t < file->thread_count; t++)
    for (size_t r = 0; r < file->threads[t].register_count; r++)
      fprintf(out, "  out[%d] = canonical(out%d_%s[k], i);\n", column++, file->threads[t].number,
              file->threads[t].registers[r].name);
  for (size_t v = 0; v < file->var_count; v++)
    fprintf(out, "  out[%d] = canonical(v_%s[i], i);\n", column++, file->vars[v].name);
  fputs("  (void)k;\n}\n\n", out);

  fputs("static const char *const columns[] = {", out);
  for (size_t t = 0; t < file->thread_count; t++)
    for (size_t r = 0; r < file->threads[t].register_count; r++)
      fprintf(out, "\"%d:%s\", ", file->threads[t].number, file->threads[t].registers[r].name);
  for (size_t v = 0; v < file->var_count; v++)
    fprintf(out, "\"%s\", ", file->vars[v].name);
  fputs("NULL};\n", out);
  fputs("static const char *const variables[] = {", out);
  for (size_t v = 0; v < file->var_count; v++)
    fprintf(out, "\"%s\", ", file->vars[v].name);
  fputs("NULL};\n\n", out);

  fprintf(out,
          "const struct lf_program lf_program = {\n  .name = \"%s\",\n  .thread_count = %zu,\n",
          file->name, file->thread_count);
  fputs("  .threads = {", out);
  for (size_t t = 0; t < file->thread_count; t++)
    fprintf(out, "%sP%zu", t ? ", " : "", t);
  fprintf(out,
          "},\n  .init = init,\n  .state = state,\n  .columns = columns,\n"
          "  .column_count = %d,\n  .variables = variables};\n",
          column);
}
