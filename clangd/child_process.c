/* Starting children. An exec failure is reported through a close-on-exec
 * pipe, so a missing program is an error at start, not an EOF later. */
#define _GNU_SOURCE

#include "child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static void close_if_open(int fd) {
  if (fd >= 0)
    close(fd);
}

int child_start(const char *path, char *const argv[], bool pipe_input, bool pipe_output,
                int error_fd, child_process *child) {
  int input[2] = {-1, -1}, output[2] = {-1, -1}, report[2] = {-1, -1};
  int null_fd = -1;
  int failure = 0;
  if ((pipe_input && pipe2(input, O_CLOEXEC) != 0) ||
      (pipe_output && pipe2(output, O_CLOEXEC) != 0) || pipe2(report, O_CLOEXEC) != 0 ||
      (null_fd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
    failure = errno;
    goto fail;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    failure = errno;
    goto fail;
  }
  if (pid == 0) {
#ifdef __linux__
    /* No orphan when the wrapper is killed: the child follows it. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
      _exit(127);
#endif
    signal(SIGPIPE, SIG_DFL);
    if (dup2(pipe_input ? input[0] : null_fd, 0) < 0 ||
        dup2(pipe_output ? output[1] : null_fd, 1) < 0 || (error_fd >= 0 && dup2(error_fd, 2) < 0))
      goto child_fail;
    execv(path, argv);
  child_fail:;
    int error = errno;
    ssize_t ignored = write(report[1], &error, sizeof error);
    (void)ignored;
    _exit(127);
  }
  close(report[1]);
  report[1] = -1;
  int exec_error = 0;
  ssize_t n;
  do
    n = read(report[0], &exec_error, sizeof exec_error);
  while (n < 0 && errno == EINTR);
  close(report[0]);
  report[0] = -1;
  if (n == (ssize_t)sizeof exec_error) {
    waitpid(pid, NULL, 0);
    failure = exec_error;
    goto fail;
  }
  close_if_open(input[0]);
  close_if_open(output[1]);
  close(null_fd);
  child->pid = pid;
  child->to_child = input[1];
  child->from_child = output[0];
  return 0;

fail:
  close_if_open(input[0]);
  close_if_open(input[1]);
  close_if_open(output[0]);
  close_if_open(output[1]);
  close_if_open(report[0]);
  close_if_open(report[1]);
  close_if_open(null_fd);
  return failure ? failure : EIO;
}

static bool executable_file(const char *path) {
  struct stat status;
  return stat(path, &status) == 0 && S_ISREG(status.st_mode) && access(path, X_OK) == 0;
}

char *find_program(const char *name) {
  if (strchr(name, '/'))
    return executable_file(name) ? strdup(name) : NULL;
  const char *search = getenv("PATH");
  if (!search)
    search = "/usr/local/bin:/usr/bin:/bin";
  size_t name_length = strlen(name);
  for (const char *dir = search;;) {
    const char *end = strchr(dir, ':');
    size_t dir_length = end ? (size_t)(end - dir) : strlen(dir);
    char *candidate = malloc(dir_length + name_length + 3);
    if (!candidate)
      abort();
    if (dir_length == 0)
      strcpy(candidate, "./");
    else {
      memcpy(candidate, dir, dir_length);
      candidate[dir_length] = '/';
      candidate[dir_length + 1] = '\0';
    }
    strcat(candidate, name);
    if (executable_file(candidate))
      return candidate;
    free(candidate);
    if (!end)
      return NULL;
    dir = end + 1;
  }
}

int exit_status_of(int wait_status) {
  if (WIFEXITED(wait_status))
    return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status))
    return 128 + WTERMSIG(wait_status);
  return 1;
}
