/* See lf_file.h: the litmus files a command-line argument names. */
#define _POSIX_C_SOURCE 200809L
#include "lf_file.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool has_litmus_suffix(const char *name) {
  size_t n = strlen(name);
  return n > 7 && strcmp(name + n - 7, ".litmus") == 0;
}

bool lf_is_litmus_argument(const char *path) {
  struct stat info;
  return has_litmus_suffix(path) || (stat(path, &info) == 0 && S_ISDIR(info.st_mode));
}

struct list {
  char **paths;
  long count, capacity;
};

static void add(struct list *list, const char *path) {
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? list->capacity * 2 : 64;
    list->paths = realloc(list->paths, (size_t)list->capacity * sizeof *list->paths);
    if (!list->paths)
      abort();
  }
  list->paths[list->count] = strdup(path);
  if (!list->paths[list->count])
    abort();
  list->count++;
}

static bool walk(const char *directory, struct list *list) {
  DIR *dir = opendir(directory);
  if (!dir) {
    fprintf(stderr, "%s: error: cannot read the directory: %s\n", directory, strerror(errno));
    return false;
  }
  bool fine = true;
  for (struct dirent *entry; (entry = readdir(dir));) {
    if (entry->d_name[0] == '.')
      continue;
    size_t size = strlen(directory) + strlen(entry->d_name) + 2;
    char *path = malloc(size);
    if (!path)
      abort();
    snprintf(path, size, "%s/%s", directory, entry->d_name);
    struct stat info;
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode))
      fine = walk(path, list) && fine;
    else if (has_litmus_suffix(entry->d_name))
      add(list, path);
    free(path);
  }
  closedir(dir);
  return fine;
}

static int by_name(const void *left, const void *right) {
  return strcmp(*(char *const *)left, *(char *const *)right);
}

long lf_collect(const char *path, char ***paths) {
  struct list list = {0};
  struct stat info;
  if (stat(path, &info) != 0) {
    fprintf(stderr, "%s: error: no such file or directory\n", path);
    return -1;
  }
  if (S_ISDIR(info.st_mode)) {
    if (!walk(path, &list)) {
      lf_collect_free(list.paths, list.count);
      return -1;
    }
    if (list.count == 0) {
      fprintf(stderr, "%s: error: no litmus files (*.litmus) in this directory\n", path);
      return -1;
    }
    qsort(list.paths, (size_t)list.count, sizeof *list.paths, by_name);
  } else {
    add(&list, path);
  }
  *paths = list.paths;
  return list.count;
}

void lf_collect_free(char **paths, long count) {
  for (long i = 0; i < count; i++)
    free(paths[i]);
  free(paths);
}
