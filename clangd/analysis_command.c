#define _POSIX_C_SOURCE 200809L

#include "analysis_command.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *joined(const char *directory, const char *name) {
  size_t size = strlen(directory) + strlen(name) + 2;
  char *path = malloc(size);
  if (!path)
    abort();
  snprintf(path, size, "%s/%s", directory, name);
  return path;
}

static bool exists(const char *directory, const char *name) {
  char *path = joined(directory, name);
  bool found = access(path, R_OK) == 0;
  free(path);
  return found;
}

typedef enum { DATABASE_DIRECTORY, DATABASE_FLAGS_FILE, DATABASE_NONE } database_kind;

/* The directory searched in clangd's order; *directory is malloc()ed. */
static database_kind find_database(const char *path, char **directory) {
  char *dir = strdup(path);
  if (!dir)
    abort();
  for (char *slash; (slash = strrchr(dir, '/'));) {
    slash[slash == dir ? 1 : 0] = '\0';
    if (exists(dir, "compile_commands.json")) {
      *directory = dir;
      return DATABASE_DIRECTORY;
    }
    if (exists(dir, "compile_flags.txt")) {
      *directory = dir;
      return DATABASE_FLAGS_FILE;
    }
    if (exists(dir, "build/compile_commands.json")) {
      *directory = joined(dir, "build");
      free(dir);
      return DATABASE_DIRECTORY;
    }
    if (slash == dir)
      break;
  }
  free(dir);
  *directory = NULL;
  return DATABASE_NONE;
}

char **analysis_command(const char *barrierpair, const char *path, const char *contents_path,
                        const char *compile_commands_dir) {
  char **argv = calloc(12, sizeof *argv);
  if (!argv)
    abort();
  size_t n = 0;
  argv[n++] = strdup(barrierpair);
  argv[n++] = strdup("check");
  argv[n++] = strdup("--format=json");
  argv[n++] = strdup("--jobs=1");
  char *directory = NULL;
  database_kind kind = compile_commands_dir ? DATABASE_DIRECTORY : find_database(path, &directory);
  if (kind == DATABASE_DIRECTORY) {
    argv[n++] = strdup("-p");
    argv[n++] = strdup(compile_commands_dir ? compile_commands_dir : directory);
  }
  /* DATABASE_FLAGS_FILE: check finds compile_flags.txt itself, as clangd. */
  size_t size = strlen(path) + strlen(contents_path) + 2;
  char *contents = malloc(size);
  if (!contents)
    abort();
  snprintf(contents, size, "%s=%s", path, contents_path);
  argv[n++] = strdup("--contents");
  argv[n++] = contents;
  argv[n++] = strdup(path);
  if (kind == DATABASE_NONE)
    argv[n++] = strdup("--");
  free(directory);
  for (size_t i = 0; i < n; i++)
    if (!argv[i])
      abort();
  return argv;
}

void analysis_command_free(char **argv) {
  for (size_t i = 0; argv && argv[i]; i++)
    free(argv[i]);
  free(argv);
}
