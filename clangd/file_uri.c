#include "file_uri.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

char *file_uri_to_path(const char *uri) {
  static const char scheme[] = "file://";
  if (strncmp(uri, scheme, sizeof scheme - 1) != 0)
    return NULL;
  const char *rest = uri + sizeof scheme - 1;
  /* file://host/path: only the local host is a path here. */
  if (*rest != '/') {
    if (strncmp(rest, "localhost/", 10) != 0)
      return NULL;
    rest += 9;
  }
  char *path = malloc(strlen(rest) + 1);
  if (!path)
    abort();
  size_t n = 0;
  for (const char *c = rest; *c; c++) {
    int high, low;
    if (*c == '%' && (high = hex_value(c[1])) >= 0 && (low = hex_value(c[2])) >= 0) {
      path[n++] = (char)(high * 16 + low);
      c += 2;
    } else {
      path[n++] = *c;
    }
  }
  path[n] = '\0';
  return path;
}

/* Characters clangd leaves unescaped in a path (RFC 3986 unreserved, plus
 * the path's separators). */
static int unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~' || c == '/';
}

char *file_uri_from_path(const char *path) {
  char *uri = malloc(7 + strlen(path) * 3 + 1);
  if (!uri)
    abort();
  size_t n = (size_t)sprintf(uri, "file://");
  for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
    if (unreserved(*c))
      uri[n++] = (char)*c;
    else
      n += (size_t)sprintf(uri + n, "%%%02X", *c);
  }
  uri[n] = '\0';
  return uri;
}
