/* Child processes (clangd, and barrierpair check per analysis) with pipes on
 * their standard input and output. A child dies with the wrapper. */
#ifndef BARRIERPAIR_CLANGD_CHILD_PROCESS_H
#define BARRIERPAIR_CLANGD_CHILD_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct {
  pid_t pid;
  int to_child;   /* its standard input, or -1 */
  int from_child; /* its standard output, or -1 */
} child_process;

/* Starts `path` (a path, not a name to search) with `argv`. Its standard
 * input and output are pipes when asked, else /dev/null; its standard error
 * is `error_fd`, or ours when -1. Returns 0, or the errno of the failed
 * start (exec included). */
int child_start(const char *path, char *const argv[], bool pipe_input, bool pipe_output,
                int error_fd, child_process *child);

/* The executable `name` on PATH (or `name` itself when it has a slash and is
 * executable), malloc()ed, or NULL. */
char *find_program(const char *name);

/* An exit status from waitpid()'s status: the child's, or 128 + signal. */
int exit_status_of(int wait_status);

#endif
