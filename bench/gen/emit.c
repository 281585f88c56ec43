#include "emit.h"

#include <stdarg.h>

void emit(emitter *e, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(e->out, format, args);
  va_end(args);
  fputc('\n', e->out);
  e->lines++;
}

void emit_blank(emitter *e) {
  fputc('\n', e->out);
  e->lines++;
}
