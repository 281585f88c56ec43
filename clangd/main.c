/* barrierpair-clangd: clangd with barrierpair's findings.
 *
 *   barrierpair-clangd [--clangd=PATH] [--barrierpair=PATH] [clangd options...]
 *
 * clangd runs no compiler plugin, so the plugin's warnings never reach an
 * editor through it. This wrapper starts the real clangd, relays the LSP
 * session between the editor (our standard input and output) and clangd,
 * and adds barrierpair's findings on each open C document to clangd's
 * diagnostics, with their fix-its as quick fixes. It exits with clangd's
 * exit status. */
#define _POSIX_C_SOURCE 200809L

#include "child_process.h"
#include "lsp_framing.h"
#include "session.h"

#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: barrierpair-clangd [--clangd=PATH] [--barrierpair=PATH] [clangd options...]\n"
    "\n"
    "clangd, with barrierpair's findings on C files among its diagnostics and their\n"
    "fix-its as quick fixes. Point your editor's clangd setting at this program.\n"
    "\n"
    "  --clangd=PATH       the clangd to run (default: clangd-19, else clangd, on PATH)\n"
    "  --barrierpair=PATH  the barrierpair program that analyses (default: the one\n"
    "                      installed beside barrierpair-clangd, else on PATH)\n"
    "  -h, --help          this help; clangd's own: barrierpair-clangd -- --help\n"
    "\n"
    "Every other argument goes to clangd (--compile-commands-dir is used for the\n"
    "analysis too). The exit status is clangd's; 2 when clangd cannot be started.\n";

typedef struct {
  const char *clangd;      /* --clangd, or NULL */
  const char *barrierpair; /* --barrierpair, or NULL */
  const char *compile_commands_dir;
  char **clangd_argv; /* argv[0] left for the clangd path */
} options;

/* `--name=value` or `--name value`; *i advanced past what was used. */
static bool take_option(int argc, char **argv, int *i, const char *name, const char **value) {
  size_t length = strlen(name);
  if (strncmp(argv[*i], name, length) != 0)
    return false;
  if (argv[*i][length] == '=') {
    *value = argv[*i] + length + 1;
    return true;
  }
  if (argv[*i][length] != '\0')
    return false;
  *value = *i + 1 < argc ? argv[++*i] : NULL;
  return true;
}

/* -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->clangd_argv = calloc((size_t)argc + 2, sizeof *o->clangd_argv);
  if (!o->clangd_argv)
    abort();
  int n = 1;
  bool passing = false; /* after `--`, everything is clangd's */
  for (int i = 1; i < argc; i++) {
    const char *value;
    if (!passing && strcmp(argv[i], "--") == 0) {
      passing = true;
    } else if (!passing && (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!passing && take_option(argc, argv, &i, "--clangd", &value)) {
      if (!value || !value[0]) {
        fprintf(stderr, "barrierpair-clangd: error: --clangd needs the path of a clangd\n");
        return EXIT_USAGE;
      }
      o->clangd = value;
    } else if (!passing && take_option(argc, argv, &i, "--barrierpair", &value)) {
      if (!value || !value[0]) {
        fprintf(stderr, "barrierpair-clangd: error: --barrierpair needs the path of barrierpair\n");
        return EXIT_USAGE;
      }
      o->barrierpair = value;
    } else {
      /* clangd's options parser takes one dash or two. */
      int at = i;
      if ((take_option(argc, argv, &i, "--compile-commands-dir", &value) ||
           take_option(argc, argv, &i, "-compile-commands-dir", &value)) &&
          value)
        o->compile_commands_dir = value;
      for (; at <= i; at++)
        o->clangd_argv[n++] = argv[at];
    }
  }
  return -1;
}

static char *find_clangd(const char *requested) {
  if (requested)
    return find_program(requested);
  char *found = find_program("clangd-19");
  return found ? found : find_program("clangd");
}

/* barrierpair beside this program (the build's bin/ and the install's
 * bin/ both hold the two), else on PATH. */
static char *find_barrierpair(const char *requested) {
  if (requested)
    return find_program(requested);
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char beside[4096 + 16];
    snprintf(beside, sizeof beside, "%s/barrierpair", dirname(self));
    char *found = find_program(beside);
    if (found)
      return found;
  }
  return find_program("barrierpair");
}

/* clangd's modes that print and exit instead of speaking LSP (editors run
 * `--version` to check the server): clangd runs in our place, its output
 * untouched. */
static bool one_shot(char **clangd_argv) {
  static const char *const modes[] = {"version", "help", "help-hidden", "help-list", "check"};
  for (size_t i = 1; clangd_argv[i]; i++) {
    const char *name = clangd_argv[i];
    if (name[0] != '-')
      continue;
    name += name[1] == '-' ? 2 : 1;
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
      size_t length = strlen(modes[m]);
      if (strncmp(name, modes[m], length) == 0 && (name[length] == '\0' || name[length] == '='))
        return true;
    }
  }
  return false;
}

/* Delivers each message read from `fd` until its end; `from` names the
 * side in the log. */
static void relay(int fd, session *s, const char *from,
                  void (*deliver)(session *, const char *, size_t)) {
  lsp_reader *reader = malloc(sizeof *reader);
  if (!reader)
    abort();
  lsp_reader_init(reader, fd);
  for (;;) {
    char *body, problem[256];
    size_t length;
    lsp_read_status status = lsp_read(reader, &body, &length, problem, sizeof problem);
    if (status == LSP_READ_END)
      break;
    if (status == LSP_READ_MALFORMED) {
      fprintf(stderr, "barrierpair-clangd: skipped a malformed message from %s: %s\n", from,
              problem);
      continue;
    }
    if (problem[0])
      fprintf(stderr, "barrierpair-clangd: in the input from %s: %s\n", from, problem);
    deliver(s, body, length);
    free(body);
  }
  free(reader);
}

typedef struct {
  session *session;
  int from_clangd;
  pid_t clangd;
} clangd_side;

/* When clangd closes its output, the wrapper ends with clangd's exit
 * status. */
static void *relay_from_clangd(void *argument) {
  clangd_side *side = argument;
  relay(side->from_clangd, side->session, "clangd", session_from_clangd);
  int wait_status = 0;
  while (waitpid(side->clangd, &wait_status, 0) < 0 && errno == EINTR)
    ;
  session_stop_analysis(side->session);
  session_hold_output(side->session);
  exit(exit_status_of(wait_status));
}

int main(int argc, char **argv) {
  options o;
  int status = parse_options(argc, argv, &o);
  if (status >= 0)
    return status;

  char *clangd = find_clangd(o.clangd);
  if (!clangd) {
    if (o.clangd)
      fprintf(stderr, "barrierpair-clangd: error: --clangd=%s: no such executable\n", o.clangd);
    else
      fprintf(stderr, "barrierpair-clangd: error: no clangd-19 or clangd on PATH: install "
                      "clangd-19 or pass --clangd=PATH\n");
    return EXIT_USAGE;
  }
  o.clangd_argv[0] = clangd;
  if (one_shot(o.clangd_argv)) {
    execv(clangd, o.clangd_argv);
    fprintf(stderr, "barrierpair-clangd: error: cannot run %s: %s\n", clangd, strerror(errno));
    return EXIT_USAGE;
  }
  char *barrierpair = find_barrierpair(o.barrierpair);
  if (!barrierpair) {
    if (o.barrierpair) {
      fprintf(stderr, "barrierpair-clangd: error: --barrierpair=%s: no such executable\n",
              o.barrierpair);
      return EXIT_USAGE;
    }
    fprintf(stderr, "barrierpair-clangd: warning: barrierpair is neither beside this program nor "
                    "on PATH: relaying clangd without barrierpair's findings\n");
  }

  /* A peer that went away shows as a failed write and an EOF, not a signal. */
  signal(SIGPIPE, SIG_IGN);
  child_process child;
  int failure = child_start(clangd, o.clangd_argv, true, true, -1, &child);
  if (failure) {
    fprintf(stderr, "barrierpair-clangd: error: cannot run %s: %s\n", clangd, strerror(failure));
    return EXIT_USAGE;
  }

  session *s = session_create(1, child.to_child, barrierpair, o.compile_commands_dir);
  clangd_side side = {s, child.from_child, child.pid};
  pthread_t thread;
  if (pthread_create(&thread, NULL, relay_from_clangd, &side) != 0)
    abort();

  relay(0, s, "the editor", session_from_editor);
  /* The editor is gone: clangd sees the end of its input and exits, and the
   * other thread ends the wrapper with its status. */
  session_stop_analysis(s);
  close(child.to_child);
  pthread_join(thread, NULL);
  return 1; /* not reached */
}
