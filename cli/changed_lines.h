/* The lines a git revision's diff to the working tree changed (check
 * --changed-since): what a pull request added or changed, so a check on it
 * reports only the findings it brings. */
#ifndef BARRIERPAIR_CLI_CHANGED_LINES_H
#define BARRIERPAIR_CLI_CHANGED_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct changed_lines changed_lines;

/* Runs `git diff -U0 <revision>` in the repository of the current
 * directory. NULL with `error` filled when git fails (no repository, no
 * such revision). */
changed_lines *changed_lines_since(const char *revision, char *error, size_t error_size);
void changed_lines_free(changed_lines *lines);

/* Whether line `line` (from 1) of the file at absolute `path` is new or
 * changed, or borders on removed lines. */
bool changed_lines_has(const changed_lines *lines, const char *path, uint32_t line);

#endif
