/* See lf_emit.h: the embedded files, looked up and written out. */
#define _POSIX_C_SOURCE 200809L
#include "lf_emit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *lf_embedded(const char *name) {
  for (const struct lf_embedded_file *f = lf_embedded_files; f->name; f++)
    if (strcmp(f->name, name) == 0)
      return f->text;
  return NULL;
}

bool lf_write_embedded(const char *directory) {
  for (const struct lf_embedded_file *f = lf_embedded_files; f->name; f++) {
    size_t size = strlen(directory) + strlen(f->name) + 2;
    char *path = malloc(size);
    if (!path)
      abort();
    snprintf(path, size, "%s/%s", directory, f->name);
    FILE *out = fopen(path, "w");
    bool written = out && fputs(f->text, out) >= 0;
    if (out && fclose(out) != 0)
      written = false;
    if (!written)
      fprintf(stderr, "barrierpair: error: cannot write '%s': %s\n", path, strerror(errno));
    free(path);
    if (!written)
      return false;
  }
  return true;
}
