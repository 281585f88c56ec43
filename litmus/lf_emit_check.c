/* See lf_emit.h: a litmus file as C for the analyzer. Each shared variable
 * is a global of its own name and type, so the analyzer names the objects
 * as the file does; each P<n> is a function of its own. */
#include "lf_emit.h"
#include "lf_emit_code.h"

#include <string.h>

static void declare(FILE *out, const char *type, const char *name) {
  size_t n = strlen(type);
  fprintf(out, "%s%s%s", type, n && type[n - 1] == '*' ? "" : " ", name);
}

void lf_emit_check(FILE *out, const struct lf_file *file) {
  /* Line 1 the prelude, line 2 the globals, then each statement on its own
   * line of the litmus file: the analyzer's findings point into it. */
  fprintf(out, "#include \"%s\" /* %s, converted by barrierpair */\n", LF_CHECK_PRELUDE_NAME,
          file->name);
  int line = 2;
  /* Pointers last, so that what they point to is declared. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < file->var_count; i++) {
      const struct lf_var *var = &file->vars[i];
      if ((var->points_to[0] != '\0') != (pass == 1))
        continue;
      declare(out, var->type, var->name);
      if (var->points_to[0])
        fprintf(out, " = &%s", var->points_to);
      else if (var->value)
        fprintf(out, " = %ld", var->value);
      fputs("; ", out);
    }
  }
  struct lf_style style = {.run = false, .line = &line};
  for (size_t t = 0; t < file->thread_count; t++) {
    const struct lf_thread *thread = &file->threads[t];
    while (line < thread->line) {
      fputc('\n', out);
      line++;
    }
    fprintf(out, "void P%d(void) {", thread->number);
    for (size_t r = 0; r < thread->register_count; r++) {
      const struct lf_var *reg = &thread->registers[r];
      fputc(' ', out);
      declare(out, reg->type, reg->name);
      fputs(" = 0;", out);
    }
    lf_emit_stmt(out, &style, thread, thread->body, 1);
    fputs(" }", out);
  }
  fputc('\n', out);
}
