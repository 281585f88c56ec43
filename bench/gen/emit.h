/* Writing the generated program line by line, counting the lines, so the
 * generator knows when it has written enough. */
#ifndef BENCH_GEN_EMIT_H
#define BENCH_GEN_EMIT_H

#include <stdio.h>

typedef struct {
  FILE *out;
  unsigned long lines;
} emitter;

/* One line (the newline is added) from a printf format. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void emit(emitter *e, const char *format, ...);
void emit_blank(emitter *e);

#endif
