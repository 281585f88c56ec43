/* A herd7 C litmus file, parsed: the header, the init block, the threads
 * P0..Pn as statement trees, the final condition and the file's `Result:`
 * line. Both the native runner (lf_emit_run.c) and `barrierpair check`
 * (lf_emit_check.c) read it; neither reparses the text.
 *
 * What is accepted is what the kernel's litmus tests use (docs/litmus.md,
 * "Litmus files"); anything else is an error naming the construct and its
 * line, never a guess. */
#ifndef BARRIERPAIR_LITMUS_LF_FILE_H
#define BARRIERPAIR_LITMUS_LF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LF_MAX_THREADS 8
#define LF_MAX_NAMES 64 /* shared variables; registers of one thread */
#define LF_MAX_ARGS 4
#define LF_NAME 64

enum lf_expr_kind {
  LF_NUMBER,   /* value */
  LF_NAME_REF, /* name: a register, or a thread parameter (a pointer to a shared variable) */
  LF_DEREF,    /* *left */
  LF_ADDRESS,  /* &left */
  LF_UNARY,    /* op left: - ! ~ */
  LF_BINARY,   /* left op right */
  LF_CALL      /* name(args): one of lf_ops.def */
};

struct lf_expr {
  enum lf_expr_kind kind;
  int line;
  long value;
  char name[LF_NAME];
  char op[3];
  struct lf_expr *left, *right;
  struct lf_expr *args[LF_MAX_ARGS];
  int arg_count;
};

enum lf_stmt_kind {
  LF_DECLARE, /* type name [= init]: a register */
  LF_ASSIGN,  /* name = expr */
  LF_EVAL,    /* expr; (a call) */
  LF_IF,      /* if (cond) then [else other] */
  LF_BLOCK    /* { body } */
};

struct lf_stmt {
  enum lf_stmt_kind kind;
  int line;
  char type[LF_NAME]; /* LF_DECLARE: "int", "int *" */
  char name[LF_NAME];
  struct lf_expr *expr; /* the value or the condition; NULL if none */
  struct lf_stmt *then, *other;
  struct lf_stmt **body; /* LF_BLOCK */
  size_t body_count;
};

struct lf_var {
  char name[LF_NAME];
  char type[LF_NAME];      /* the variable's own type: "int", "int *", "atomic_t" */
  long value;              /* initial value when it is a number */
  char points_to[LF_NAME]; /* initial value when it is the address of a variable */
};

struct lf_thread {
  int number; /* P<number> */
  int line;
  struct lf_var params[LF_MAX_NAMES]; /* name, and the type of what it points to */
  size_t param_count;
  struct lf_var registers[LF_MAX_NAMES]; /* declared registers, type as declared */
  size_t register_count;
  struct lf_stmt *body;
};

/* The final condition. */
enum lf_prop_kind { LF_TRUE, LF_FALSE, LF_EQUAL, LF_NOT_EQUAL, LF_NOT, LF_AND, LF_OR };

struct lf_prop {
  enum lf_prop_kind kind;
  int thread;           /* LF_EQUAL, LF_NOT_EQUAL: a register of P<thread>, or -1: a variable */
  char name[LF_NAME];   /* the register or variable */
  long value;           /* compared with this number... */
  char symbol[LF_NAME]; /* ...or, when set, with the address of this variable */
  struct lf_prop *left, *right;
};

enum lf_quantifier { LF_EXISTS, LF_NOT_EXISTS, LF_FORALL };
enum lf_result { LF_RESULT_NONE, LF_RESULT_NEVER, LF_RESULT_SOMETIMES, LF_RESULT_ALWAYS };

/* A location the final state shows: a register (thread >= 0) or a variable. */
struct lf_location {
  int thread;
  char name[LF_NAME];
};

struct lf_file {
  char path[1024];
  char name[256];
  struct lf_var vars[LF_MAX_NAMES]; /* every shared variable, init block first */
  size_t var_count;
  struct lf_thread threads[LF_MAX_THREADS];
  size_t thread_count;
  enum lf_quantifier quantifier;
  struct lf_prop *condition;
  struct lf_prop *filter;                 /* NULL: none */
  struct lf_location shown[LF_MAX_NAMES]; /* what the histogram shows */
  size_t shown_count;
  enum lf_result result; /* from a comment "Result: Never" */
  int result_line;
  void *arena; /* every node, freed at once */
};

/* Parses `path`. On error returns false with "path:line: message" in
 * `error`. */
bool lf_parse_file(const char *path, struct lf_file *file, char *error, size_t error_size);
/* The same from text already read; `path` names it in messages. */
bool lf_parse_text(const char *path, const char *text, struct lf_file *file, char *error,
                   size_t error_size);
void lf_free(struct lf_file *file);

const char *lf_result_name(enum lf_result result);
/* Finds a shared variable; NULL if none. */
const struct lf_var *lf_find_var(const struct lf_file *file, const char *name);
/* A parameter of the thread (a pointer to the shared variable of that name). */
const struct lf_var *lf_find_param(const struct lf_thread *thread, const char *name);

/* The final condition on a state: `value(location)` gives each location's
 * value; a pointer to variable v is given as lf_pointer_value(index of v). */
typedef long (*lf_value_of)(const struct lf_location *location, void *context);
bool lf_prop_holds(const struct lf_file *file, const struct lf_prop *prop, lf_value_of value,
                   void *context);
void lf_prop_print(FILE *out, const struct lf_prop *prop);
#define LF_POINTER_TAG (-(1L << 40))
static inline long lf_pointer_value(size_t var_index) {
  return LF_POINTER_TAG + (long)var_index;
}
static inline bool lf_is_pointer_value(long value) {
  return value >= LF_POINTER_TAG && value < LF_POINTER_TAG + LF_MAX_NAMES;
}

/* Directory arguments: every *.litmus file below `path`, sorted, or `path`
 * itself when it is a file. Returns the count (malloc()ed list in *paths), or
 * -1 with a message on stderr. */
long lf_collect(const char *path, char ***paths);
void lf_collect_free(char **paths, long count);
/* `path` is a litmus file by name, or a directory. */
bool lf_is_litmus_argument(const char *path);

#endif
