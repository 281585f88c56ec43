/* Reads the hunk headers of `git diff -U0`: "+++ b/<path>" names a file,
 * "@@ -a,b +c,d @@" says lines c to c+d-1 of it are new. A hunk that only
 * removes (d == 0) sits between lines c and c+1, and both count as changed:
 * removing a barrier changes what the lines around it mean. */
#define _POSIX_C_SOURCE 200809L

#include "changed_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

typedef struct {
  char *path; /* absolute */
  uint32_t first, last;
} changed_range;

struct changed_lines {
  changed_range *ranges;
  size_t count, capacity;
};

/* `revision` quoted for the shell. */
static char *quoted(const char *text) {
  char *result = malloc(strlen(text) * 4 + 3);
  if (!result)
    abort();
  char *out = result;
  *out++ = '\'';
  for (; *text; text++) {
    if (*text == '\'') {
      memcpy(out, "'\\''", 4);
      out += 4;
    } else {
      *out++ = *text;
    }
  }
  *out++ = '\'';
  *out = '\0';
  return result;
}

/* The first line git prints for `command`, or NULL when it fails. */
static char *git_line(const char *command) {
  FILE *pipe = popen(command, "r");
  if (!pipe)
    return NULL;
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length = getline(&line, &capacity, pipe);
  int status = pclose(pipe);
  if (length <= 0 || status != 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\n")] = '\0';
  return line;
}

static void add_range(changed_lines *lines, const char *path, uint32_t first, uint32_t last) {
  if (lines->count == lines->capacity) {
    lines->capacity = lines->capacity ? lines->capacity * 2 : 64;
    lines->ranges = realloc(lines->ranges, lines->capacity * sizeof *lines->ranges);
    if (!lines->ranges)
      abort();
  }
  changed_range *range = &lines->ranges[lines->count++];
  range->path = strdup(path);
  if (!range->path)
    abort();
  range->first = first;
  range->last = last;
}

changed_lines *changed_lines_since(const char *revision, char *error, size_t error_size) {
  char *top = git_line("git rev-parse --show-toplevel 2>/dev/null");
  if (!top) {
    snprintf(error, error_size, "--changed-since needs a git repository: '%s' is not in one", ".");
    return NULL;
  }
  char *quoted_revision = quoted(revision);
  size_t size = strlen(quoted_revision) + 128;
  char *command = malloc(size);
  if (!command)
    abort();
  snprintf(command, size, "git rev-parse --verify --quiet %s^{commit} 2>/dev/null",
           quoted_revision);
  char *commit = git_line(command);
  if (!commit) {
    snprintf(error, error_size, "--changed-since: '%s' is not a revision of this repository",
             revision);
    free(command);
    free(quoted_revision);
    free(top);
    return NULL;
  }
  /* Paths relative to the top of the repository, whatever the directory. */
  snprintf(command, size,
           "git -c core.quotePath=false diff -U0 --no-color --no-ext-diff --no-renames %s --",
           commit);
  free(commit);
  free(quoted_revision);
  FILE *pipe = popen(command, "r");
  free(command);
  if (!pipe) {
    snprintf(error, error_size, "--changed-since: cannot run git");
    free(top);
    return NULL;
  }
  changed_lines *lines = calloc(1, sizeof *lines);
  if (!lines)
    abort();
  char *line = NULL, *path = NULL;
  size_t capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &capacity, pipe)) > 0) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "+++ ", 4) == 0) {
      free(path);
      path = NULL;
      if (strncmp(line + 4, "b/", 2) == 0) { /* "+++ /dev/null": the file is gone */
        path = malloc(strlen(top) + strlen(line + 6) + 2);
        if (!path)
          abort();
        sprintf(path, "%s/%s", top, line + 6);
      }
    } else if (path && strncmp(line, "@@ ", 3) == 0) {
      const char *plus = strstr(line, " +");
      if (!plus)
        continue;
      char *end;
      unsigned long first = strtoul(plus + 2, &end, 10);
      unsigned long count = *end == ',' ? strtoul(end + 1, NULL, 10) : 1;
      if (count == 0)
        add_range(lines, path, (uint32_t)first, (uint32_t)first + 1);
      else
        add_range(lines, path, (uint32_t)first, (uint32_t)(first + count - 1));
    }
  }
  free(line);
  free(path);
  free(top);
  int status = pclose(pipe);
  if (status != 0) {
    snprintf(error, error_size, "--changed-since: git diff %s failed", revision);
    changed_lines_free(lines);
    return NULL;
  }
  return lines;
}

void changed_lines_free(changed_lines *lines) {
  if (!lines)
    return;
  for (size_t i = 0; i < lines->count; i++)
    free(lines->ranges[i].path);
  free(lines->ranges);
  free(lines);
}

bool changed_lines_has(const changed_lines *lines, const char *path, uint32_t line) {
  for (size_t i = 0; i < lines->count; i++) {
    const changed_range *range = &lines->ranges[i];
    if (line >= range->first && line <= range->last && strcmp(range->path, path) == 0)
      return true;
  }
  return false;
}
