/* See lf_file.h: the herd7 C litmus format, text to tree.
 *
 *   C <name>
 *   ["doc string"]
 *   { <init>* }          int x = 1;  int *p = &x;  x = 1;  int *p = x;
 *   P<n>(<type> *<name>, ...) { <statement>* }   ...
 *   [locations [<loc>; ...]]
 *   [filter <prop>]
 *   exists|~exists|forall <prop>
 *
 * Comments are (* ... *), slash-star and //; a comment's "Result: Never" is
 * the file's verdict. */
#define _POSIX_C_SOURCE 200809L
#include "lf_file.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct op {
  const char *name;
  int arguments;
  bool returns;
};
static const struct op ops[] = {
#define LF_OP(name, arguments, returns) {#name, arguments, returns},
#include "lf_ops.def"
#undef LF_OP
};

/* ---- Memory: one arena per file ---- */

struct arena_block {
  struct arena_block *next;
  _Alignas(16) unsigned char data[];
};

struct parser {
  const char *path;
  const char *text;
  size_t at;
  int line;
  struct lf_file *file;
  struct lf_thread *thread; /* being parsed: "(*" is C there, not a comment */
  char *error;
  size_t error_size;
  jmp_buf fail;
};

static void *allocate(struct parser *p, size_t size) {
  struct arena_block *block = calloc(1, sizeof *block + size);
  if (!block)
    abort();
  block->next = p->file->arena;
  p->file->arena = block;
  return block->data;
}

static _Noreturn void fail_at(struct parser *p, int line, const char *format, ...) {
  int n = snprintf(p->error, p->error_size, "%s:%d: error: ", p->path, line);
  va_list arguments;
  va_start(arguments, format);
  if (n >= 0 && (size_t)n < p->error_size)
    vsnprintf(p->error + n, p->error_size - (size_t)n, format, arguments);
  va_end(arguments);
  longjmp(p->fail, 1);
}

/* ---- Tokens ---- */

enum token_kind { T_END, T_NAME, T_NUMBER, T_STRING, T_PUNCT };

struct token {
  enum token_kind kind;
  char text[LF_NAME];
  long value;
  int line;
};

static void note_result(struct parser *p, const char *comment, size_t length, int line) {
  if (p->file->result != LF_RESULT_NONE)
    return;
  for (size_t i = 0; i + 7 <= length; i++) {
    if (strncmp(comment + i, "Result:", 7) != 0)
      continue;
    size_t j = i + 7;
    while (j < length && (comment[j] == ' ' || comment[j] == '\t'))
      j++;
    static const struct {
      const char *word;
      enum lf_result result;
    } words[] = {{"Never", LF_RESULT_NEVER},
                 {"Sometimes", LF_RESULT_SOMETIMES},
                 {"Always", LF_RESULT_ALWAYS}};
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
      size_t n = strlen(words[w].word);
      if (j + n <= length && strncmp(comment + j, words[w].word, n) == 0) {
        p->file->result = words[w].result;
        p->file->result_line = line;
        for (size_t k = i; k < j; k++)
          p->file->result_line += comment[k] == '\n';
        return;
      }
    }
  }
}

static void skip_space(struct parser *p) {
  const char *s = p->text;
  for (;;) {
    char c = s[p->at];
    if (c == '\n') {
      p->line++;
      p->at++;
    } else if (isspace((unsigned char)c)) {
      p->at++;
    } else if ((c == '(' && s[p->at + 1] == '*' && !p->thread) ||
               (c == '/' && s[p->at + 1] == '*')) {
      const char *close = c == '(' ? "*)" : "*/";
      int line = p->line;
      size_t start = p->at + 2;
      const char *end = strstr(s + start, close);
      if (!end)
        fail_at(p, line, "unterminated comment");
      note_result(p, s + start, (size_t)(end - (s + start)), line);
      for (const char *q = s + start; q < end; q++)
        p->line += *q == '\n';
      p->at = (size_t)(end - s) + 2;
    } else if (c == '/' && s[p->at + 1] == '/') {
      size_t start = p->at + 2;
      while (s[p->at] && s[p->at] != '\n')
        p->at++;
      note_result(p, s + start, p->at - start, p->line);
    } else {
      return;
    }
  }
}

static struct token lex(struct parser *p) {
  skip_space(p);
  struct token t = {.line = p->line};
  const char *s = p->text + p->at;
  if (!*s)
    return t;
  if (isalpha((unsigned char)*s) || *s == '_') {
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
      n++;
    if (n >= LF_NAME)
      fail_at(p, t.line, "name too long: '%.*s'", (int)n, s);
    t.kind = T_NAME;
    memcpy(t.text, s, n);
    p->at += n;
    return t;
  }
  if (isdigit((unsigned char)*s)) {
    char *end;
    errno = 0;
    t.value = strtol(s, &end, 0);
    if (errno || isalpha((unsigned char)*end) || *end == '_')
      fail_at(p, t.line, "bad number '%.*s'", (int)strcspn(s, " \t\n;)"), s);
    t.kind = T_NUMBER;
    snprintf(t.text, sizeof t.text, "%.*s", (int)(end - s), s);
    p->at += (size_t)(end - s);
    return t;
  }
  if (*s == '"') {
    const char *end = strchr(s + 1, '"');
    if (!end)
      fail_at(p, t.line, "unterminated string");
    for (const char *q = s; q < end; q++)
      p->line += *q == '\n';
    t.kind = T_STRING;
    p->at += (size_t)(end - s) + 1;
    return t;
  }
  static const char *const two[] = {"/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>"};
  t.kind = T_PUNCT;
  for (size_t i = 0; i < sizeof two / sizeof *two; i++) {
    if (strncmp(s, two[i], 2) == 0) {
      memcpy(t.text, s, 2);
      p->at += 2;
      return t;
    }
  }
  if (!strchr("{}()[];,:=*&|^+-!~<>", *s))
    fail_at(p, t.line, "unexpected character '%c'", *s);
  t.text[0] = *s;
  p->at++;
  return t;
}

static struct token peek(struct parser *p) {
  size_t at = p->at;
  int line = p->line;
  enum lf_result result = p->file->result;
  int result_line = p->file->result_line;
  struct token t = lex(p);
  p->at = at;
  p->line = line;
  p->file->result = result;
  p->file->result_line = result_line;
  return t;
}

static bool is(const struct token *t, const char *text) {
  return (t->kind == T_PUNCT || t->kind == T_NAME) && strcmp(t->text, text) == 0;
}

static const char *describe(const struct token *t) {
  static char buffer[LF_NAME + 16];
  if (t->kind == T_END)
    return "the end of the file";
  if (t->kind == T_STRING)
    return "a string";
  snprintf(buffer, sizeof buffer, "'%s'", t->text);
  return buffer;
}

static struct token expect(struct parser *p, const char *text, const char *where) {
  struct token t = lex(p);
  if (!is(&t, text))
    fail_at(p, t.line, "expected '%s' %s, found %s", text, where, describe(&t));
  return t;
}

static bool peek_is(struct parser *p, const char *text) {
  struct token t = peek(p);
  return is(&t, text);
}

static bool accept(struct parser *p, const char *text) {
  struct token t = peek(p);
  if (!is(&t, text))
    return false;
  lex(p);
  return true;
}

static struct token expect_name(struct parser *p, const char *what) {
  struct token t = lex(p);
  if (t.kind != T_NAME)
    fail_at(p, t.line, "expected %s, found %s", what, describe(&t));
  return t;
}

/* ---- Types: int, long, unsigned, atomic_t, spinlock_t, intptr_t, with stars ---- */

static bool is_type_word(const char *word) {
  static const char *const words[] = {"int",      "long",       "unsigned", "signed",
                                      "atomic_t", "spinlock_t", "intptr_t", "uintptr_t"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(word, words[i]) == 0)
      return true;
  return false;
}

/* Reads `type-words *...` (not the name); false if the next token is no type. */
static bool parse_type(struct parser *p, char *type, size_t size) {
  struct token t = peek(p);
  if (t.kind != T_NAME || !is_type_word(t.text)) {
    static const char *const unsupported[] = {"char",  "short", "float", "double",   "struct",
                                              "union", "enum",  "const", "volatile", "bool"};
    for (size_t i = 0; t.kind == T_NAME && i < sizeof unsupported / sizeof *unsupported; i++)
      if (strcmp(t.text, unsupported[i]) == 0)
        fail_at(p, t.line, "unsupported type '%s': use int, long, atomic_t or spinlock_t", t.text);
    return false;
  }
  type[0] = '\0';
  while (t.kind == T_NAME && is_type_word(t.text)) {
    lex(p);
    if (type[0])
      strncat(type, " ", size - strlen(type) - 1);
    strncat(type, t.text, size - strlen(type) - 1);
    t = peek(p);
  }
  while (accept(p, "*"))
    strncat(type, strlen(type) && type[strlen(type) - 1] != '*' ? " *" : "*",
            size - strlen(type) - 1);
  return true;
}

/* "int *" -> "int"; false if the type is no pointer. */
static bool pointee(const char *type, char *out, size_t size) {
  size_t n = strlen(type);
  if (n == 0 || type[n - 1] != '*')
    return false;
  n--;
  while (n > 0 && type[n - 1] == ' ')
    n--;
  snprintf(out, size, "%.*s", (int)n, type);
  return true;
}

/* ---- Shared variables ---- */

static struct lf_var *var_named(struct lf_file *file, const char *name) {
  for (size_t i = 0; i < file->var_count; i++)
    if (strcmp(file->vars[i].name, name) == 0)
      return &file->vars[i];
  return NULL;
}

static struct lf_var *add_var(struct parser *p, const char *name, int line) {
  struct lf_var *var = var_named(p->file, name);
  if (var)
    return var;
  if (p->file->var_count == LF_MAX_NAMES)
    fail_at(p, line, "more than %d shared variables", LF_MAX_NAMES);
  var = &p->file->vars[p->file->var_count++];
  snprintf(var->name, sizeof var->name, "%s", name);
  return var;
}

/* { int x = 1; int *p = &x; y = 2; } */
static void parse_init(struct parser *p) {
  expect(p, "{", "to open the init block");
  while (!accept(p, "}")) {
    char type[LF_NAME] = "";
    struct token t = peek(p);
    if (t.kind == T_NUMBER)
      fail_at(p, t.line, "unsupported in the init block: initial register values ('%s:...')",
              t.text);
    bool typed = parse_type(p, type, sizeof type);
    struct token name = expect_name(p, "a variable name in the init block");
    if (name.kind == T_NAME && peek_is(p, "["))
      fail_at(p, name.line, "unsupported in the init block: arrays");
    struct lf_var *var = add_var(p, name.text, name.line);
    if (typed) {
      if (var->type[0] && strcmp(var->type, type) != 0)
        fail_at(p, name.line, "'%s' declared twice with different types", name.text);
      snprintf(var->type, sizeof var->type, "%s", type);
    }
    if (accept(p, "=")) {
      bool address = accept(p, "&");
      struct token value = lex(p);
      bool negative = false;
      if (!address && is(&value, "-")) {
        negative = true;
        value = lex(p);
      }
      if (value.kind == T_NUMBER && !address) {
        var->value = negative ? -value.value : value.value;
      } else if (value.kind == T_NAME && !negative) {
        /* herd7 writes both `int *p = &x;` and `int *p = x;` */
        snprintf(var->points_to, sizeof var->points_to, "%s", value.text);
        add_var(p, value.text, value.line);
        if (!var->type[0])
          snprintf(var->type, sizeof var->type, "int *");
      } else {
        fail_at(p, value.line, "unsupported initial value %s for '%s': give a number or &name",
                describe(&value), name.text);
      }
    }
    struct token end = lex(p);
    if (!is(&end, ";") && !is(&end, ","))
      fail_at(p, end.line, "expected ';' after the initialisation of '%s', found %s", name.text,
              describe(&end));
  }
}

/* ---- Expressions (C precedence, the operators herd7's C uses) ---- */

static struct lf_expr *new_expr(struct parser *p, enum lf_expr_kind kind, int line) {
  struct lf_expr *e = allocate(p, sizeof *e);
  e->kind = kind;
  e->line = line;
  return e;
}

static struct lf_expr *parse_expr(struct parser *p);

static const struct op *find_op(const char *name) {
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (strcmp(ops[i].name, name) == 0)
      return &ops[i];
  return NULL;
}

static bool is_register(const struct lf_thread *thread, const char *name) {
  for (size_t i = 0; i < thread->register_count; i++)
    if (strcmp(thread->registers[i].name, name) == 0)
      return true;
  return false;
}

static struct lf_expr *parse_primary(struct parser *p) {
  struct token t = lex(p);
  if (t.kind == T_NUMBER) {
    struct lf_expr *e = new_expr(p, LF_NUMBER, t.line);
    e->value = t.value;
    return e;
  }
  if (is(&t, "(")) {
    struct token next = peek(p);
    if (next.kind == T_NAME && is_type_word(next.text))
      fail_at(p, next.line, "unsupported: casts");
    struct lf_expr *e = parse_expr(p);
    expect(p, ")", "to close the parenthesis");
    return e;
  }
  if (t.kind != T_NAME)
    fail_at(p, t.line, "expected an expression, found %s", describe(&t));
  if (peek_is(p, "(")) {
    const struct op *op = find_op(t.text);
    if (!op)
      fail_at(p, t.line, "unsupported operation '%s'", t.text);
    lex(p);
    struct lf_expr *e = new_expr(p, LF_CALL, t.line);
    snprintf(e->name, sizeof e->name, "%s", t.text);
    if (!accept(p, ")")) {
      do {
        if (e->arg_count == LF_MAX_ARGS)
          fail_at(p, t.line, "too many arguments to '%s'", t.text);
        e->args[e->arg_count++] = parse_expr(p);
      } while (accept(p, ","));
      expect(p, ")", "to close the argument list");
    }
    if (e->arg_count != op->arguments)
      fail_at(p, t.line, "'%s' takes %d argument%s, not %d", t.text, op->arguments,
              op->arguments == 1 ? "" : "s", e->arg_count);
    return e;
  }
  if (!is_register(p->thread, t.text) && !lf_find_param(p->thread, t.text))
    fail_at(p, t.line, "'%s' is neither a register of P%d nor one of its parameters", t.text,
            p->thread->number);
  struct lf_expr *e = new_expr(p, LF_NAME_REF, t.line);
  snprintf(e->name, sizeof e->name, "%s", t.text);
  return e;
}

static struct lf_expr *parse_unary(struct parser *p) {
  struct token t = peek(p);
  if (is(&t, "*") || is(&t, "&") || is(&t, "-") || is(&t, "!") || is(&t, "~")) {
    lex(p);
    struct lf_expr *operand = parse_unary(p);
    enum lf_expr_kind kind = is(&t, "*") ? LF_DEREF : is(&t, "&") ? LF_ADDRESS : LF_UNARY;
    struct lf_expr *e = new_expr(p, kind, t.line);
    e->op[0] = t.text[0];
    e->left = operand;
    return e;
  }
  return parse_primary(p);
}

static int precedence(const struct token *t) {
  static const struct {
    const char *op;
    int level;
  } table[] = {{"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6},
               {"!=", 6}, {"<", 7},  {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8},
               {">>", 8}, {"+", 9},  {"-", 9}, {"*", 10}};
  if (t->kind != T_PUNCT)
    return 0;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(t->text, table[i].op) == 0)
      return table[i].level;
  return 0;
}

static struct lf_expr *parse_binary(struct parser *p, int minimum) {
  struct lf_expr *left = parse_unary(p);
  for (;;) {
    struct token t = peek(p);
    int level = precedence(&t);
    if (level == 0 || level < minimum)
      return left;
    lex(p);
    struct lf_expr *e = new_expr(p, LF_BINARY, t.line);
    memcpy(e->op, t.text, 2); /* operators have at most two characters */
    e->left = left;
    e->right = parse_binary(p, level + 1);
    left = e;
  }
}

static struct lf_expr *parse_expr(struct parser *p) {
  struct lf_expr *e = parse_binary(p, 1);
  return e;
}

/* ---- Statements ---- */

static struct lf_stmt *new_stmt(struct parser *p, enum lf_stmt_kind kind, int line) {
  struct lf_stmt *s = allocate(p, sizeof *s);
  s->kind = kind;
  s->line = line;
  return s;
}

static struct lf_stmt *parse_statement(struct parser *p);

static struct lf_stmt *parse_block(struct parser *p, int line) {
  struct lf_stmt *block = new_stmt(p, LF_BLOCK, line);
  size_t capacity = 0;
  while (!accept(p, "}")) {
    if (peek(p).kind == T_END)
      fail_at(p, line, "unterminated block: no '}'");
    struct lf_stmt *s = parse_statement(p);
    if (!s)
      continue;
    if (block->body_count == capacity) {
      capacity = capacity ? capacity * 2 : 16;
      struct lf_stmt **body = allocate(p, capacity * sizeof *body);
      if (block->body_count)
        memcpy(body, block->body, block->body_count * sizeof *body);
      block->body = body;
    }
    block->body[block->body_count++] = s;
  }
  return block;
}

static void declare_register(struct parser *p, const char *type, const struct token *name) {
  struct lf_thread *thread = p->thread;
  if (is_register(thread, name->text) || lf_find_param(thread, name->text))
    fail_at(p, name->line, "'%s' declared twice in P%d", name->text, thread->number);
  if (thread->register_count == LF_MAX_NAMES)
    fail_at(p, name->line, "more than %d registers in P%d", LF_MAX_NAMES, thread->number);
  struct lf_var *r = &thread->registers[thread->register_count++];
  snprintf(r->name, sizeof r->name, "%s", name->text);
  snprintf(r->type, sizeof r->type, "%s", type);
}

static struct lf_stmt *parse_statement(struct parser *p) {
  struct token t = peek(p);
  if (is(&t, ";")) {
    lex(p);
    return NULL;
  }
  if (is(&t, "{")) {
    lex(p);
    return parse_block(p, t.line);
  }
  if (t.kind == T_NAME) {
    static const char *const unsupported[] = {"while",  "for",    "do",    "goto",
                                              "return", "switch", "break", "continue"};
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
      if (is(&t, unsupported[i]))
        fail_at(p, t.line, "unsupported statement '%s'", t.text);
  }
  if (is(&t, "if")) {
    lex(p);
    expect(p, "(", "after 'if'");
    struct lf_stmt *s = new_stmt(p, LF_IF, t.line);
    s->expr = parse_expr(p);
    expect(p, ")", "to close the condition of 'if'");
    s->then = parse_statement(p);
    if (!s->then)
      s->then = new_stmt(p, LF_BLOCK, t.line);
    if (accept(p, "else")) {
      s->other = parse_statement(p);
      if (!s->other)
        s->other = new_stmt(p, LF_BLOCK, t.line);
    }
    return s;
  }
  char type[LF_NAME];
  if (parse_type(p, type, sizeof type)) {
    struct lf_stmt *first = NULL;
    struct lf_stmt *block = NULL;
    do {
      struct token name = expect_name(p, "a register name");
      char own_type[LF_NAME];
      snprintf(own_type, sizeof own_type, "%s", type);
      while (accept(p, "*"))
        strncat(own_type, " *", sizeof own_type - strlen(own_type) - 1);
      declare_register(p, own_type, &name);
      struct lf_stmt *s = new_stmt(p, LF_DECLARE, name.line);
      snprintf(s->type, sizeof s->type, "%s", own_type);
      snprintf(s->name, sizeof s->name, "%s", name.text);
      if (accept(p, "="))
        s->expr = parse_expr(p);
      if (!first) {
        first = s;
      } else {
        if (!block) {
          block = new_stmt(p, LF_BLOCK, t.line);
          block->body = allocate(p, LF_MAX_NAMES * sizeof *block->body);
          block->body[block->body_count++] = first;
        }
        if (block->body_count == LF_MAX_NAMES)
          fail_at(p, name.line, "too many declarations in one statement");
        block->body[block->body_count++] = s;
      }
    } while (accept(p, ","));
    expect(p, ";", "after a declaration");
    if (block)
      block->kind = LF_BLOCK, block->line = -1; /* not a scope: a list of declarations */
    return block ? block : first;
  }
  struct lf_expr *e = parse_expr(p);
  struct token next = lex(p);
  if (is(&next, "=")) {
    if (e->kind != LF_NAME_REF || !is_register(p->thread, e->name))
      fail_at(p, next.line,
              "unsupported assignment: only a register may be assigned (use WRITE_ONCE() for a "
              "shared variable)");
    struct lf_stmt *s = new_stmt(p, LF_ASSIGN, t.line);
    snprintf(s->name, sizeof s->name, "%s", e->name);
    s->expr = parse_expr(p);
    expect(p, ";", "after an assignment");
    return s;
  }
  if (!is(&next, ";"))
    fail_at(p, next.line, "expected ';' after a statement, found %s", describe(&next));
  if (e->kind != LF_CALL)
    fail_at(p, t.line, "a statement must be a call, an assignment to a register or an 'if'");
  struct lf_stmt *s = new_stmt(p, LF_EVAL, t.line);
  s->expr = e;
  return s;
}

/* P<n>(int *x, int **p) { ... } */
static void parse_thread(struct parser *p, const struct token *name) {
  char *end;
  long number = strtol(name->text + 1, &end, 10);
  if (*end || number < 0 || name->text[1] == '\0')
    fail_at(p, name->line, "expected a thread P<n>, found '%s'", name->text);
  if (number != (long)p->file->thread_count)
    fail_at(p, name->line, "threads must be P0, P1, ... in order: found '%s' where P%zu goes",
            name->text, p->file->thread_count);
  if (p->file->thread_count == LF_MAX_THREADS)
    fail_at(p, name->line, "more than %d threads", LF_MAX_THREADS);
  struct lf_thread *thread = &p->file->threads[p->file->thread_count++];
  thread->number = (int)number;
  thread->line = name->line;
  p->thread = thread; /* before the parameters: (*x) */
  expect(p, "(", "after the thread's name");
  if (!accept(p, ")")) {
    do {
      char type[LF_NAME], target[LF_NAME];
      struct token at = peek(p);
      if (!parse_type(p, type, sizeof type))
        fail_at(p, at.line, "expected a parameter type, found %s", describe(&at));
      struct token param = expect_name(p, "a parameter name");
      if (!pointee(type, target, sizeof target))
        fail_at(p, param.line, "parameter '%s' of P%d must be a pointer to a shared variable",
                param.text, thread->number);
      if (thread->param_count == LF_MAX_NAMES)
        fail_at(p, param.line, "too many parameters");
      struct lf_var *own = &thread->params[thread->param_count++];
      snprintf(own->name, sizeof own->name, "%s", param.text);
      snprintf(own->type, sizeof own->type, "%s", target);
      struct lf_var *var = add_var(p, param.text, param.line);
      if (!var->type[0])
        snprintf(var->type, sizeof var->type, "%s", target);
      else if (strcmp(var->type, target) != 0)
        fail_at(p, param.line, "'%s' is '%s' here but '%s' elsewhere", param.text, target,
                var->type);
    } while (accept(p, ","));
    expect(p, ")", "to close the parameter list");
  }
  struct token open = expect(p, "{", "to open the thread's body");
  thread->body = parse_block(p, open.line);
  p->thread = NULL;
}

/* ---- The final condition ---- */

static struct lf_prop *new_prop(struct parser *p, enum lf_prop_kind kind) {
  struct lf_prop *prop = allocate(p, sizeof *prop);
  prop->kind = kind;
  return prop;
}

static void note_shown(struct parser *p, int thread, const char *name) {
  struct lf_file *f = p->file;
  for (size_t i = 0; i < f->shown_count; i++)
    if (f->shown[i].thread == thread && strcmp(f->shown[i].name, name) == 0)
      return;
  if (f->shown_count < LF_MAX_NAMES) {
    f->shown[f->shown_count].thread = thread;
    snprintf(f->shown[f->shown_count].name, LF_NAME, "%s", name);
    f->shown_count++;
  }
}

/* 0:r0 or x; checked against the threads once they are all parsed. */
static void parse_location(struct parser *p, int *thread, char *name) {
  struct token t = lex(p);
  if (t.kind == T_NUMBER) {
    *thread = (int)t.value;
    expect(p, ":", "between a thread number and a register");
    struct token reg = expect_name(p, "a register");
    if (*thread < 0 || (size_t)*thread >= p->file->thread_count)
      fail_at(p, reg.line, "no thread P%d for '%d:%s'", *thread, *thread, reg.text);
    if (!is_register(&p->file->threads[*thread], reg.text))
      fail_at(p, reg.line, "'%d:%s': P%d has no register '%s'", *thread, reg.text, *thread,
              reg.text);
    snprintf(name, LF_NAME, "%s", reg.text);
  } else if (t.kind == T_NAME) {
    if (peek_is(p, "["))
      fail_at(p, t.line, "unsupported in the condition: arrays");
    if (!var_named(p->file, t.text))
      fail_at(p, t.line, "'%s' in the condition is no shared variable", t.text);
    *thread = -1;
    snprintf(name, LF_NAME, "%s", t.text);
  } else {
    fail_at(p, t.line, "expected a location (0:r0 or x), found %s", describe(&t));
  }
  note_shown(p, *thread, name);
}

static struct lf_prop *parse_prop(struct parser *p);

static struct lf_prop *parse_atom(struct parser *p) {
  struct token t = peek(p);
  if (is(&t, "~") || is(&t, "not")) {
    lex(p);
    struct lf_prop *prop = new_prop(p, LF_NOT);
    prop->left = parse_atom(p);
    return prop;
  }
  if (is(&t, "(")) {
    lex(p);
    struct lf_prop *prop = parse_prop(p);
    expect(p, ")", "to close the parenthesis in the condition");
    return prop;
  }
  if (is(&t, "true") || is(&t, "false")) {
    lex(p);
    return new_prop(p, is(&t, "true") ? LF_TRUE : LF_FALSE);
  }
  struct lf_prop *prop = new_prop(p, LF_EQUAL);
  parse_location(p, &prop->thread, prop->name);
  struct token op = lex(p);
  if (is(&op, "!="))
    prop->kind = LF_NOT_EQUAL;
  else if (!is(&op, "=") && !is(&op, "=="))
    fail_at(p, op.line, "expected '=' in the condition, found %s", describe(&op));
  struct token value = lex(p);
  bool negative = false;
  if (is(&value, "-")) {
    negative = true;
    value = lex(p);
  }
  if (value.kind == T_NUMBER) {
    prop->value = negative ? -value.value : value.value;
  } else if (value.kind == T_NAME && !negative) {
    if (!var_named(p->file, value.text))
      fail_at(p, value.line, "'%s' in the condition is no shared variable", value.text);
    snprintf(prop->symbol, sizeof prop->symbol, "%s", value.text);
  } else {
    fail_at(p, value.line, "expected a value in the condition, found %s", describe(&value));
  }
  return prop;
}

static struct lf_prop *parse_conjunction(struct parser *p) {
  struct lf_prop *left = parse_atom(p);
  while (accept(p, "/\\")) {
    struct lf_prop *prop = new_prop(p, LF_AND);
    prop->left = left;
    prop->right = parse_atom(p);
    left = prop;
  }
  return left;
}

static struct lf_prop *parse_prop(struct parser *p) {
  struct lf_prop *left = parse_conjunction(p);
  for (;;) {
    struct token t = peek(p);
    if (is(&t, "\\/")) {
      lex(p);
      struct lf_prop *prop = new_prop(p, LF_OR);
      prop->left = left;
      prop->right = parse_conjunction(p);
      left = prop;
    } else {
      return left;
    }
  }
}

static void parse_final(struct parser *p) {
  struct token t = lex(p);
  if (is(&t, "locations")) {
    expect(p, "[", "after 'locations'");
    while (!accept(p, "]")) {
      int thread;
      char name[LF_NAME];
      parse_location(p, &thread, name);
      accept(p, ";");
    }
    t = lex(p);
  }
  if (is(&t, "filter")) {
    p->file->filter = parse_prop(p);
    t = lex(p);
  }
  if (is(&t, "exists")) {
    p->file->quantifier = LF_EXISTS;
  } else if (is(&t, "~")) {
    struct token word = lex(p);
    if (!is(&word, "exists"))
      fail_at(p, word.line, "expected 'exists' after '~', found %s", describe(&word));
    p->file->quantifier = LF_NOT_EXISTS;
  } else if (is(&t, "forall")) {
    p->file->quantifier = LF_FORALL;
  } else if (t.kind == T_END) {
    fail_at(p, t.line, "no final condition: expected 'exists', '~exists' or 'forall'");
  } else {
    fail_at(p, t.line,
            "unsupported final clause %s: expected 'exists', '~exists', 'forall', "
            "'filter' or 'locations'",
            describe(&t));
  }
  p->file->condition = parse_prop(p);
  struct token end = lex(p);
  if (end.kind != T_END)
    fail_at(p, end.line, "unexpected %s after the final condition", describe(&end));
}

/* ---- The file ---- */

static void parse_header(struct parser *p) {
  skip_space(p);
  const char *s = p->text + p->at;
  if (s[0] != 'C' || (s[1] != ' ' && s[1] != '\t')) {
    size_t n = strcspn(s, " \t\n");
    fail_at(p, p->line,
            "not a C litmus test: the first line must be 'C <name>', found '%.*s' (only herd7's "
            "C litmus format is supported)",
            (int)(n > 40 ? 40 : n), s);
  }
  s += 2;
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strcspn(s, "\n");
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0)
    fail_at(p, p->line, "the test has no name after 'C'");
  snprintf(p->file->name, sizeof p->file->name, "%.*s", (int)n, s);
  p->at = (size_t)(s + n - p->text);
}

bool lf_parse_text(const char *path, const char *text, struct lf_file *file, char *error,
                   size_t error_size) {
  memset(file, 0, sizeof *file);
  snprintf(file->path, sizeof file->path, "%s", path);
  struct parser p = {.path = path,
                     .text = text,
                     .line = 1,
                     .file = file,
                     .error = error,
                     .error_size = error_size};
  if (setjmp(p.fail)) {
    lf_free(file);
    return false;
  }
  parse_header(&p);
  while (peek(&p).kind == T_STRING)
    lex(&p);
  if (peek_is(&p, "{"))
    parse_init(&p);
  for (;;) {
    struct token t = peek(&p);
    if (t.kind != T_NAME || t.text[0] != 'P' || !isdigit((unsigned char)t.text[1]))
      break;
    lex(&p);
    parse_thread(&p, &t);
  }
  if (file->thread_count == 0) {
    struct token t = peek(&p);
    fail_at(&p, t.line, "no threads: expected P0(...) { ... }, found %s", describe(&t));
  }
  parse_final(&p);
  /* A pointer initialised to a variable's address: the variable must be shared. */
  for (size_t i = 0; i < file->var_count; i++)
    if (!file->vars[i].type[0])
      snprintf(file->vars[i].type, sizeof file->vars[i].type, "int");
  return true;
}

bool lf_parse_file(const char *path, struct lf_file *file, char *error, size_t error_size) {
  FILE *in = fopen(path, "r");
  if (!in) {
    snprintf(error, error_size, "%s: error: cannot read: %s", path, strerror(errno));
    return false;
  }
  size_t size = 0, capacity = 4096;
  char *text = malloc(capacity);
  if (!text)
    abort();
  size_t got;
  while ((got = fread(text + size, 1, capacity - size - 1, in)) > 0) {
    size += got;
    if (capacity - size < 2) {
      capacity *= 2;
      text = realloc(text, capacity);
      if (!text)
        abort();
    }
  }
  fclose(in);
  text[size] = '\0';
  bool parsed = lf_parse_text(path, text, file, error, error_size);
  free(text);
  return parsed;
}

void lf_free(struct lf_file *file) {
  struct arena_block *block = file->arena;
  while (block) {
    struct arena_block *next = block->next;
    free(block);
    block = next;
  }
  file->arena = NULL;
}

const char *lf_result_name(enum lf_result result) {
  switch (result) {
  case LF_RESULT_NEVER:
    return "Never";
  case LF_RESULT_SOMETIMES:
    return "Sometimes";
  case LF_RESULT_ALWAYS:
    return "Always";
  case LF_RESULT_NONE:
    break;
  }
  return "";
}

const struct lf_var *lf_find_var(const struct lf_file *file, const char *name) {
  for (size_t i = 0; i < file->var_count; i++)
    if (strcmp(file->vars[i].name, name) == 0)
      return &file->vars[i];
  return NULL;
}

const struct lf_var *lf_find_param(const struct lf_thread *thread, const char *name) {
  for (size_t i = 0; i < thread->param_count; i++)
    if (strcmp(thread->params[i].name, name) == 0)
      return &thread->params[i];
  return NULL;
}
