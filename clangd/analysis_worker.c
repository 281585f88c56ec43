/* The worker thread. Each analysis writes the document's text to a
 * temporary file and runs `barrierpair check --contents <path>=<temp>
 * --format json`, so the CLI stays the only analyser and a crash in it
 * cannot take the editor's session down. */
#define _GNU_SOURCE

#include "analysis_worker.h"

#include "analysis_command.h"
#include "child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct job {
  char *uri, *path, *text;
  size_t length;
  int64_t version;
  struct job *next;
} job;

struct analysis_worker {
  char *barrierpair, *compile_commands_dir, *cwd;
  analysis_done done;
  void *context;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  job *queue;         /* FIFO, one job per document */
  char *running_uri;  /* the document being analysed, or NULL */
  pid_t running_pid;  /* its barrierpair check, or 0 */
  bool running_stale; /* an edit overtook it */
  bool stopping;
};

static void job_free(job *j) {
  free(j->uri);
  free(j->path);
  free(j->text);
  free(j);
}

void analysis_submit(analysis_worker *worker, const char *uri, const char *path, int64_t version,
                     const char *text, size_t length) {
  job *fresh = calloc(1, sizeof *fresh);
  if (!fresh || !(fresh->uri = strdup(uri)) || !(fresh->path = strdup(path)) ||
      !(fresh->text = malloc(length + 1)))
    abort();
  memcpy(fresh->text, text, length);
  fresh->text[length] = '\0';
  fresh->length = length;
  fresh->version = version;
  pthread_mutex_lock(&worker->lock);
  job **slot = &worker->queue;
  while (*slot && strcmp((*slot)->uri, uri) != 0)
    slot = &(*slot)->next;
  if (*slot) { /* keep its place in the queue, take the newer text */
    fresh->next = (*slot)->next;
    job_free(*slot);
  }
  *slot = fresh;
  if (worker->running_uri && strcmp(worker->running_uri, uri) == 0 && worker->running_pid > 0) {
    worker->running_stale = true;
    kill(worker->running_pid, SIGKILL);
  }
  pthread_cond_signal(&worker->wake);
  pthread_mutex_unlock(&worker->lock);
}

static char *read_all(int fd, size_t *length) {
  size_t capacity = 65536, n = 0;
  char *data = malloc(capacity + 1);
  if (!data)
    abort();
  for (;;) {
    if (n == capacity) {
      capacity *= 2;
      data = realloc(data, capacity + 1);
      if (!data)
        abort();
    }
    ssize_t got = read(fd, data + n, capacity - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    n += (size_t)got;
  }
  data[n] = '\0';
  *length = n;
  return data;
}

static bool write_all(int fd, const char *data, size_t length) {
  while (length) {
    ssize_t n = write(fd, data, length);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    length -= (size_t)n;
  }
  return true;
}

static bool is_error_line(const char *line, size_t length) {
  const char *error = strstr(line, ": error: ");
  const char *fatal = strstr(line, ": fatal error: ");
  return (error && error < line + length) || (fatal && fatal < line + length);
}

/* Why check failed, for the log: clang's first error (it names the file,
 * line and column; clang's "1 error generated." comes before it), else
 * check's own first error, else the first line it wrote. */
static void log_first_error_line(int error_fd, const char *path, int status) {
  char text[8192] = "";
  if (error_fd >= 0 && lseek(error_fd, 0, SEEK_SET) == 0) {
    ssize_t n = read(error_fd, text, sizeof text - 1);
    text[n > 0 ? n : 0] = '\0';
  }
  const char *line = text, *own_error = NULL;
  for (const char *at = text; *at; at += strcspn(at, "\n"), at += *at == '\n') {
    size_t length = strcspn(at, "\n");
    if (!is_error_line(at, length))
      continue;
    if (strncmp(at, "barrierpair: ", 13) != 0) {
      own_error = NULL;
      line = at;
      break;
    }
    if (!own_error)
      own_error = at;
  }
  if (own_error)
    line = own_error;
  int length = (int)strcspn(line, "\n");
  fprintf(stderr, "barrierpair-clangd: analysis of %s: barrierpair check exited with %d%s%.*s\n",
          path, status, length ? ": " : "", length, line);
}

static void make_absolute(json_t *place, const char *cwd) {
  const char *file = json_string_value(json_object_get(place, "file"));
  if (!file || file[0] == '/')
    return;
  size_t size = strlen(cwd) + strlen(file) + 2;
  char *absolute = malloc(size);
  if (!absolute)
    abort();
  snprintf(absolute, size, "%s/%s", cwd, file);
  json_object_set_new(place, "file", json_string(absolute));
  free(absolute);
}

/* check writes paths below its working directory relative to it. */
static void make_paths_absolute(json_t *findings, const char *cwd) {
  static const char *const lists[] = {"partners", "notes", "fixits"};
  size_t i, k;
  json_t *finding, *place;
  json_array_foreach(findings, i, finding) {
    make_absolute(finding, cwd);
    for (size_t list = 0; list < sizeof lists / sizeof *lists; list++)
      json_array_foreach(json_object_get(finding, lists[list]), k, place) make_absolute(place, cwd);
  }
}

/* Runs one analysis; the findings, or NULL when it failed or was killed. */
static json_t *analyse(analysis_worker *worker, const job *j) {
  const char *tmp = getenv("TMPDIR");
  char contents_path[4096], error_path[4096];
  snprintf(contents_path, sizeof contents_path, "%s/barrierpair-clangd-XXXXXX",
           tmp && tmp[0] ? tmp : "/tmp");
  snprintf(error_path, sizeof error_path, "%s/barrierpair-clangd-err-XXXXXX",
           tmp && tmp[0] ? tmp : "/tmp");
  int contents_fd = mkostemp(contents_path, O_CLOEXEC);
  if (contents_fd < 0) {
    fprintf(stderr, "barrierpair-clangd: cannot create a temporary file in %s: %s\n",
            tmp && tmp[0] ? tmp : "/tmp", strerror(errno));
    return NULL;
  }
  bool written = write_all(contents_fd, j->text, j->length);
  close(contents_fd);
  int error_fd = mkostemp(error_path, O_CLOEXEC);
  if (error_fd >= 0)
    unlink(error_path);
  json_t *findings = NULL;
  if (!written) {
    fprintf(stderr, "barrierpair-clangd: cannot write %s: %s\n", contents_path, strerror(errno));
    goto done;
  }

  char **argv =
      analysis_command(worker->barrierpair, j->path, contents_path, worker->compile_commands_dir);
  child_process child;
  pthread_mutex_lock(&worker->lock);
  int failure = worker->stopping || worker->running_stale
                    ? ECANCELED
                    : child_start(worker->barrierpair, argv, false, true, error_fd, &child);
  if (!failure)
    worker->running_pid = child.pid;
  pthread_mutex_unlock(&worker->lock);
  analysis_command_free(argv);
  if (failure) {
    if (failure != ECANCELED)
      fprintf(stderr, "barrierpair-clangd: cannot run %s: %s\n", worker->barrierpair,
              strerror(failure));
    goto done;
  }
  size_t length;
  char *output = read_all(child.from_child, &length);
  close(child.from_child);
  int wait_status = 0;
  while (waitpid(child.pid, &wait_status, 0) < 0 && errno == EINTR)
    ;
  pthread_mutex_lock(&worker->lock);
  worker->running_pid = 0;
  bool stale = worker->running_stale;
  pthread_mutex_unlock(&worker->lock);
  int status = exit_status_of(wait_status);
  if (!stale) {
    /* 1 is "findings"; 2 an input error (often a half-typed file that does
     * not compile), whose report still lists what could be analysed. */
    if (status == 2 && error_fd >= 0)
      log_first_error_line(error_fd, j->path, status);
    json_error_t error;
    json_t *report = status <= 2 ? json_loadb(output, length, 0, &error) : NULL;
    json_t *list = json_object_get(report, "findings");
    if (json_is_array(list)) {
      findings = json_incref(list);
      make_paths_absolute(findings, worker->cwd);
    } else if (status <= 2) {
      fprintf(stderr, "barrierpair-clangd: analysis of %s: no report from barrierpair check\n",
              j->path);
    } else {
      log_first_error_line(error_fd, j->path, status);
    }
    json_decref(report);
  }
  free(output);

done:
  unlink(contents_path);
  if (error_fd >= 0)
    close(error_fd);
  return findings;
}

static void *work(void *argument) {
  analysis_worker *worker = argument;
  pthread_mutex_lock(&worker->lock);
  for (;;) {
    while (!worker->queue && !worker->stopping)
      pthread_cond_wait(&worker->wake, &worker->lock);
    if (worker->stopping)
      break;
    job *next = worker->queue;
    worker->queue = next->next;
    worker->running_uri = next->uri;
    worker->running_stale = false;
    pthread_mutex_unlock(&worker->lock);

    json_t *findings = analyse(worker, next);
    if (findings)
      worker->done(next->uri, next->version, findings, worker->context);
    json_decref(findings);

    pthread_mutex_lock(&worker->lock);
    worker->running_uri = NULL;
    job_free(next);
  }
  pthread_mutex_unlock(&worker->lock);
  return NULL;
}

analysis_worker *analysis_worker_start(const char *barrierpair, const char *compile_commands_dir,
                                       analysis_done done, void *context) {
  analysis_worker *worker = calloc(1, sizeof *worker);
  if (!worker || !(worker->barrierpair = strdup(barrierpair)))
    abort();
  if (compile_commands_dir && !(worker->compile_commands_dir = strdup(compile_commands_dir)))
    abort();
  worker->cwd = getcwd(NULL, 0);
  if (!worker->cwd)
    worker->cwd = strdup("/");
  worker->done = done;
  worker->context = context;
  pthread_mutex_init(&worker->lock, NULL);
  pthread_cond_init(&worker->wake, NULL);
  if (pthread_create(&worker->thread, NULL, work, worker) != 0)
    abort();
  return worker;
}

void analysis_worker_stop(analysis_worker *worker) {
  pthread_mutex_lock(&worker->lock);
  worker->stopping = true;
  if (worker->running_pid > 0)
    kill(worker->running_pid, SIGKILL);
  pthread_cond_signal(&worker->wake);
  pthread_mutex_unlock(&worker->lock);
  pthread_join(worker->thread, NULL);
  while (worker->queue) {
    job *next = worker->queue->next;
    job_free(worker->queue);
    worker->queue = next;
  }
  pthread_mutex_destroy(&worker->lock);
  pthread_cond_destroy(&worker->wake);
  free(worker->barrierpair);
  free(worker->compile_commands_dir);
  free(worker->cwd);
  free(worker);
}
