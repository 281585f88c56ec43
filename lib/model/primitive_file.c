/* Primitive files: BP_FAMILY and BP_PRIMITIVE declarations in the form of
 * primitives.def, parsed and added to the primitive table.
 *
 * The grammar is that of the .def file read as data, not as C: a file is a
 * sequence of declarations, and `#` lines (so primitives.def's own #ifdef
 * guards), `//` and block comments are skipped. A declaration may span
 * lines, as BP_FAMILY does in primitives.def. After a syntax error the parser
 * resumes at the next line that starts a declaration, so one typo gives one
 * error. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { TOKEN_END, TOKEN_NAME, TOKEN_STRING, TOKEN_PUNCTUATION, TOKEN_OTHER } token_kind;

typedef struct {
  token_kind kind;
  const char *begin; /* in the text; a string's quotes included */
  size_t length;
  uint32_t line, column;
} token;

typedef struct {
  const char *at, *end;
  const char *line_start;
  uint32_t line;
  token last;   /* the token read last */
  bool stopped; /* an unterminated string or comment ended the file */
  bp_primitive_error *errors;
  size_t max_errors, error_count;
} parser;

static void report(parser *p, uint32_t line, uint32_t column, const char *format, ...) {
  if (p->error_count < p->max_errors) {
    bp_primitive_error *error = &p->errors[p->error_count];
    error->line = line;
    error->column = column;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
  }
  p->error_count++;
}

static uint32_t column_of(const parser *p, const char *at) {
  return (uint32_t)(at - p->line_start) + 1;
}

static void new_line(parser *p) {
  p->at++;
  p->line++;
  p->line_start = p->at;
}

static void skip_to_line_end(parser *p) {
  while (p->at < p->end && *p->at != '\n')
    p->at++;
}

static bool starts_with(const parser *p, const char *text) {
  size_t length = strlen(text);
  return (size_t)(p->end - p->at) >= length && memcmp(p->at, text, length) == 0;
}

/* Skips blanks and comments; false after an unterminated block comment. */
static bool skip_space(parser *p) {
  while (p->at < p->end) {
    char c = *p->at;
    if (c == '\n') {
      new_line(p);
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p->at++;
    } else if (c == '#' || starts_with(p, "//")) {
      skip_to_line_end(p);
    } else if (starts_with(p, "/*")) {
      uint32_t line = p->line, column = column_of(p, p->at);
      p->at += 2;
      while (p->at < p->end && !starts_with(p, "*/")) {
        if (*p->at == '\n')
          new_line(p);
        else
          p->at++;
      }
      if (p->at >= p->end) {
        report(p, line, column, "unterminated comment");
        p->stopped = true;
        return false;
      }
      p->at += 2;
    } else {
      return true;
    }
  }
  return true;
}

static bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}

static token read_token(parser *p);

static token next_token(parser *p) {
  p->last = read_token(p);
  return p->last;
}

/* The next token; an unterminated string is reported and ends the file. */
static token read_token(parser *p) {
  token t = {TOKEN_END, p->at, 0, p->line, 0};
  if (!skip_space(p) || p->at >= p->end) {
    t.begin = p->at;
    t.column = column_of(p, p->at);
    return t;
  }
  t.begin = p->at;
  t.line = p->line;
  t.column = column_of(p, p->at);
  char c = *p->at;
  if (is_name_start(c)) {
    t.kind = TOKEN_NAME;
    while (p->at < p->end && is_name_char(*p->at))
      p->at++;
  } else if (c == '"') {
    t.kind = TOKEN_STRING;
    p->at++;
    while (p->at < p->end && *p->at != '"' && *p->at != '\n')
      p->at += *p->at == '\\' && p->at + 1 < p->end && p->at[1] != '\n' ? 2 : 1;
    if (p->at >= p->end || *p->at != '"') {
      report(p, t.line, t.column, "unterminated string");
      p->stopped = true;
      t.kind = TOKEN_END;
      p->at = p->end;
      return t;
    }
    p->at++;
  } else if (c == '(' || c == ')' || c == ',') {
    t.kind = TOKEN_PUNCTUATION;
    p->at++;
  } else {
    t.kind = TOKEN_OTHER;
    p->at++;
  }
  t.length = (size_t)(p->at - t.begin);
  return t;
}

static bool token_is(const token *t, const char *text) {
  return t->kind != TOKEN_END && strlen(text) == t->length &&
         memcmp(t->begin, text, t->length) == 0;
}

/* What a message calls a token it did not expect. */
static void describe(const token *t, char *out, size_t size) {
  if (t->kind == TOKEN_END)
    snprintf(out, size, "the end of the file");
  else if (t->length > 40)
    snprintf(out, size, "'%.40s...'", t->begin);
  else
    snprintf(out, size, "'%.*s'", (int)t->length, t->begin);
}

static void expected(parser *p, const token *t, const char *what) {
  if (p->stopped)
    return; /* the end of the file was reported already */
  char found[64];
  describe(t, found, sizeof found);
  report(p, t->line, t->column, "expected %s, found %s", what, found);
}

/* A string literal's text without quotes, with \" and \\ undone (malloc()ed). */
static char *string_value(const token *t) {
  char *value = malloc(t->length);
  if (!value)
    abort();
  size_t n = 0;
  for (size_t i = 1; i + 1 < t->length; i++) {
    if (t->begin[i] == '\\' && i + 2 < t->length)
      i++;
    value[n++] = t->begin[i];
  }
  value[n] = '\0';
  return value;
}

static char *name_value(const token *t) {
  char *value = malloc(t->length + 1);
  if (!value)
    abort();
  memcpy(value, t->begin, t->length);
  value[t->length] = '\0';
  return value;
}

/* ---- Declarations: the tokens between the parentheses ---- */

#define MAX_ARGUMENTS 5

typedef struct {
  token keyword;
  token arguments[MAX_ARGUMENTS];
} declaration;

/* Reads `(a, b, ...)` after the keyword, with the argument kinds `kinds`
 * ('n' a name, 's' a string) and what each argument is, for messages. */
static bool read_arguments(parser *p, declaration *d, const char *kinds,
                           const char *const names[]) {
  token t = next_token(p);
  if (!token_is(&t, "(")) {
    char what[64];
    snprintf(what, sizeof what, "'(' after %.*s", (int)d->keyword.length, d->keyword.begin);
    expected(p, &t, what);
    return false;
  }
  size_t count = strlen(kinds);
  for (size_t i = 0; i < count; i++) {
    t = next_token(p);
    token_kind kind = kinds[i] == 's' ? TOKEN_STRING : TOKEN_NAME;
    if (t.kind != kind) {
      char what[96];
      snprintf(what, sizeof what, "%s (%s)", names[i],
               kind == TOKEN_STRING ? "a string" : "a name");
      expected(p, &t, what);
      return false;
    }
    d->arguments[i] = t;
    t = next_token(p);
    const char *separator = i + 1 < count ? "," : ")";
    if (!token_is(&t, separator)) {
      char what[96];
      snprintf(what, sizeof what, "'%s' after %s", separator, names[i]);
      expected(p, &t, what);
      return false;
    }
  }
  return true;
}

/* ---- Meaning ---- */

static const char *const op_names[] = {
    [BP_OP_FENCE] = "FENCE",
    [BP_OP_LOAD] = "LOAD",
    [BP_OP_STORE] = "STORE",
    [BP_OP_RMW] = "RMW",
    [BP_OP_ACCESS] = "ACCESS",
    [BP_OP_LOCK] = "LOCK",
    [BP_OP_UNLOCK] = "UNLOCK",
    [BP_OP_SPAWN] = "SPAWN",
    [BP_OP_JOIN] = "JOIN",
    [BP_OP_OR] = "OR",
    [BP_OP_AND] = "AND",
    [BP_OP_XOR] = "XOR",
    [BP_OP_BIT] = "BIT",
    [BP_OP_READ_LOCK] = "READ_LOCK",
    [BP_OP_LOCK_HELD] = "LOCK_HELD",
    [BP_OP_EXCUSE] = "EXCUSE",
    [BP_OP_TRYLOCK] = "TRYLOCK",
    [BP_OP_TRYLOCK_ZERO] = "TRYLOCK_ZERO",
    [BP_OP_READ_TRYLOCK] = "READ_TRYLOCK",
    [BP_OP_READ_TRYLOCK_ZERO] = "READ_TRYLOCK_ZERO",
    [BP_OP_MARKED_BEGIN] = "MARKED_BEGIN",
    [BP_OP_MARKED_END] = "MARKED_END",
    [BP_OP_MARKED_NEXT] = "MARKED_NEXT",
    [BP_OP_SELF] = "SELF",
    [BP_OP_INIT] = "INIT",
};

static int find_word(const char *const words[], size_t count, const token *t) {
  for (size_t i = 0; i < count; i++) {
    if (token_is(t, words[i]))
      return (int)i;
  }
  return -1;
}

static void join_words(const char *const words[], size_t count, char *out, size_t size) {
  size_t n = 0;
  out[0] = '\0';
  for (size_t i = 0; i < count && n < size; i++)
    n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", words[i]);
}

static void family_list(char *out, size_t size) {
  size_t n = 0;
  out[0] = '\0';
  for (size_t i = 0; i < bp_family_count() && n < size; i++)
    n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", bp_family_id((bp_family)i));
}

static void add_family(parser *p, const declaration *d) {
  const token *id = &d->arguments[0];
  char *name = string_value(&d->arguments[1]);
  char *spelling[3];
  for (int i = 0; i < 3; i++)
    spelling[i] = string_value(&d->arguments[2 + i]);
  bool empty = !name[0] || !spelling[0][0] || !spelling[1][0] || !spelling[2][0];
  int existing = bp_family_find(id->begin, id->length);
  if (empty) {
    report(p, id->line, id->column, "family '%.*s': its name and spellings cannot be empty",
           (int)id->length, id->begin);
  } else if (existing >= 0) {
    /* The same declaration again (a file loaded twice, primitives.def itself)
     * changes nothing; another meaning for the same name is an error. */
    const bp_family_row *row = bp_family_get((bp_family)existing);
    bool same = strcmp(row->name, name) == 0;
    for (int i = 0; i < 3; i++)
      same = same && strcmp(row->spelling[i], spelling[i]) == 0;
    if (!same)
      report(p, id->line, id->column, "family '%.*s' is already declared, as \"%s\" (%s, %s, %s)",
             (int)id->length, id->begin, row->name, row->spelling[0], row->spelling[1],
             row->spelling[2]);
  } else {
    char *id_text = name_value(id);
    bp_table_add_family(id_text, name, (const char *const *)spelling);
    free(id_text);
  }
  free(name);
  for (int i = 0; i < 3; i++)
    free(spelling[i]);
}

/* A marking is a printf format: exactly `places` "%s" (the lvalue, then the
 * value) and no other conversion. */
static bool valid_marking(const char *format, int places) {
  int found = 0;
  for (const char *at = format; (at = strchr(at, '%')) != NULL; at += 2) {
    if (at[1] == 's')
      found++;
    else if (at[1] != '%')
      return false;
  }
  return found == places;
}

/* BP_MARKING(family, "load format", "store format"): how a fix-it marks a
 * plain access in a family a file declares. */
static void add_marking(parser *p, const declaration *d) {
  const token *family = &d->arguments[0];
  char *load = string_value(&d->arguments[1]);
  char *store = string_value(&d->arguments[2]);
  int index = bp_family_find(family->begin, family->length);
  char list[512];
  if (index < 0) {
    family_list(list, sizeof list);
    report(p, family->line, family->column, "unknown family '%.*s'; families: %s",
           (int)family->length, family->begin, list);
  } else if (!valid_marking(load, 1) || !valid_marking(store, 2)) {
    report(p, family->line, family->column,
           "family '%.*s': a load's marking has one %%s (the access), a store's two (the "
           "access, then the value), and no other %% conversion",
           (int)family->length, family->begin);
  } else if (!bp_table_set_marking((bp_family)index, load, store)) {
    report(p, family->line, family->column, "family '%.*s' already has other markings, as \"%s\"",
           (int)family->length, family->begin,
           bp_marking_spelling((bp_family)index, BP_ACCESS_LOAD));
  }
  free(load);
  free(store);
}

/* BP_EXCLUSIVE(group, function): a library's contract runs the functions
 * of one group under mutual exclusion with each other. */
static void add_exclusive(parser *p, const declaration *d) {
  const token *group = &d->arguments[0], *function = &d->arguments[1];
  char *group_text = name_value(group), *function_text = name_value(function);
  const char *existing = bp_exclusive_group(function_text);
  if (existing && strcmp(existing, group_text) != 0)
    report(p, function->line, function->column, "'%s' is already in the exclusive group '%s'",
           function_text, existing);
  else if (!existing)
    bp_table_add_exclusive(group_text, function_text);
  free(group_text);
  free(function_text);
}

/* BP_CONTRACT(function, side, order): what a function orders between its
 * caller's accesses and its own. */
static void add_contract(parser *p, const declaration *d) {
  const token *function = &d->arguments[0], *side = &d->arguments[1], *order = &d->arguments[2];
  int side_index = find_word(bp_contract_side_names, BP_CONTRACT_SIDE_COUNT, side);
  int order_index = find_word(bp_order_names, BP_ORDER_NAME_COUNT, order);
  if (side_index < 0) {
    report(p, side->line, side->column, "unknown side '%.*s'; sides: ENTRY, EXIT, BARRIER",
           (int)side->length, side->begin);
    return;
  }
  bool entry = side_index == BP_CONTRACT_ENTRY, barrier = side_index == BP_CONTRACT_BARRIER;
  bool fits = order_index == BP_ORDER_MB || order_index == BP_ORDER_RMB ||
              order_index == BP_ORDER_WMB || (barrier && order_index == BP_ORDER_MEMBARRIER) ||
              (!barrier && order_index == (entry ? BP_ORDER_RELEASE : BP_ORDER_ACQUIRE));
  if (!fits) {
    report(p, order->line, order->column,
           "a contract's ordering at %s is MB, RMB, WMB or %s, not '%.*s'",
           bp_contract_side_names[side_index],
           barrier ? "MEMBARRIER"
           : entry ? "RELEASE"
                   : "ACQUIRE",
           (int)order->length, order->begin);
    return;
  }
  char *name = name_value(function);
  for (size_t i = 0; i < bp_contract_count(); i++) {
    const bp_contract *row = bp_contract_get(i);
    if (strcmp(row->function, name) == 0 && row->side == (bp_contract_side)side_index) {
      if (row->order != (bp_order)order_index) /* the same row again is no conflict */
        report(p, function->line, function->column, "'%s' already has a contract at %s: %s", name,
               bp_contract_side_names[side_index], bp_order_names[row->order]);
      free(name);
      return;
    }
  }
  bp_table_add_contract(name, (bp_contract_side)side_index, (bp_order)order_index);
  free(name);
}

static void add_primitive(parser *p, const declaration *d) {
  const token *name = &d->arguments[0], *family = &d->arguments[1], *op = &d->arguments[2],
              *order = &d->arguments[3];
  char list[512];
  int family_index = bp_family_find(family->begin, family->length);
  int op_index = find_word(op_names, sizeof op_names / sizeof op_names[0], op);
  int order_index = find_word(bp_order_names, BP_ORDER_NAME_COUNT, order);
  if (family_index < 0) {
    family_list(list, sizeof list);
    report(p, family->line, family->column, "unknown family '%.*s'; families: %s",
           (int)family->length, family->begin, list);
    return;
  }
  if (op_index < 0) {
    join_words(op_names, sizeof op_names / sizeof op_names[0], list, sizeof list);
    report(p, op->line, op->column, "unknown operation '%.*s'; operations: %s", (int)op->length,
           op->begin, list);
    return;
  }
  if (order_index < 0) {
    join_words(bp_order_names, BP_ORDER_NAME_COUNT, list, sizeof list);
    report(p, order->line, order->column, "unknown ordering '%.*s'; orderings: %s",
           (int)order->length, order->begin, list);
    return;
  }
  if (order_index == BP_ORDER_UNLOCK_LOCK && op_index != BP_OP_FENCE) {
    report(p, order->line, order->column,
           "UNLOCK_LOCK is the ordering of a FENCE written after a lock, not of a %s",
           op_names[op_index]);
    return;
  }
  int existing = bp_primitive_find(name->begin, name->length);
  if (existing != BP_NO_PRIMITIVE) {
    const bp_primitive *row = bp_primitive_get(existing);
    if (row->family != (bp_family)family_index || row->op != (bp_op)op_index ||
        row->order != (bp_order)order_index)
      report(p, name->line, name->column,
             "'%s' is already a %sprimitive: BP_PRIMITIVE(%s, %s, %s, %s)", row->name,
             (size_t)existing < bp_builtin_primitive_count() ? "built-in " : "", row->name,
             bp_family_id(row->family), op_names[row->op], bp_order_names[row->order]);
    return;
  }
  char *text = name_value(name);
  bp_table_add_primitive(text, (bp_family)family_index, (bp_op)op_index, (bp_order)order_index);
  free(text);
}

static const char *const family_arguments[] = {
    "the family's identifier", "the family's name", "the spelling of its full barrier",
    "the spelling of its read barrier", "the spelling of its write barrier"};
static const char *const marking_arguments[] = {"the family", "the load's marking",
                                                "the store's marking"};
static const char *const exclusive_arguments[] = {"the group", "the function"};
static const char *const contract_arguments[] = {
    "the function", "its side (ENTRY, EXIT or BARRIER)", "its ordering"};
static const char *const primitive_arguments[] = {"the primitive's name", "its family",
                                                  "its operation", "its ordering"};

/* After a syntax error: on to the next declaration, which is the token that
 * was not expected (a declaration that lacks its ')') or starts a later
 * line. */
static void recover(parser *p) {
  if (token_is(&p->last, "BP_PRIMITIVE") || token_is(&p->last, "BP_FAMILY") ||
      token_is(&p->last, "BP_MARKING") || token_is(&p->last, "BP_EXCLUSIVE") ||
      token_is(&p->last, "BP_CONTRACT")) {
    p->at = p->last.begin;
    p->line = p->last.line;
    p->line_start = p->last.begin - (p->last.column - 1);
    return;
  }
  for (;;) {
    skip_to_line_end(p);
    if (p->at >= p->end)
      return;
    new_line(p);
    const char *at = p->at;
    while (at < p->end && (*at == ' ' || *at == '\t'))
      at++;
    if ((size_t)(p->end - at) >= 3 && memcmp(at, "BP_", 3) == 0)
      return;
  }
}

size_t bp_primitives_add_text(const char *text, size_t length, bp_primitive_error *errors,
                              size_t max_errors) {
  parser p = {.at = text,
              .end = text + length,
              .line_start = text,
              .line = 1,
              .errors = errors,
              .max_errors = max_errors};
  size_t primitives_before = bp_primitive_count(), families_before = bp_family_count(),
         exclusives_before = bp_exclusive_count(), contracts_before = bp_contract_count();
  for (;;) {
    declaration d = {0};
    d.keyword = next_token(&p);
    if (d.keyword.kind == TOKEN_END)
      break;
    bool family = token_is(&d.keyword, "BP_FAMILY");
    bool marking = token_is(&d.keyword, "BP_MARKING");
    bool exclusive = token_is(&d.keyword, "BP_EXCLUSIVE");
    bool contract = token_is(&d.keyword, "BP_CONTRACT");
    if (!family && !marking && !exclusive && !contract && !token_is(&d.keyword, "BP_PRIMITIVE")) {
      expected(&p, &d.keyword,
               "BP_PRIMITIVE(...), BP_FAMILY(...), BP_MARKING(...), BP_EXCLUSIVE(...) or "
               "BP_CONTRACT(...)");
      recover(&p);
      continue;
    }
    if (!read_arguments(&p, &d,
                        family      ? "nssss"
                        : marking   ? "nss"
                        : exclusive ? "nn"
                        : contract  ? "nnn"
                                    : "nnnn",
                        family      ? family_arguments
                        : marking   ? marking_arguments
                        : exclusive ? exclusive_arguments
                        : contract  ? contract_arguments
                                    : primitive_arguments)) {
      recover(&p);
      continue;
    }
    if (family)
      add_family(&p, &d);
    else if (marking)
      add_marking(&p, &d);
    else if (exclusive)
      add_exclusive(&p, &d);
    else if (contract)
      add_contract(&p, &d);
    else
      add_primitive(&p, &d);
  }
  if (p.error_count)
    bp_table_truncate(primitives_before, families_before, exclusives_before, contracts_before);
  return p.error_count;
}

size_t bp_primitives_load(const char *path, bp_primitive_error *errors, size_t max_errors) {
  FILE *file = fopen(path, "rb");
  char *text = NULL;
  size_t length = 0, capacity = 0;
  int error = file ? 0 : errno;
  while (file && !error) {
    if (length == capacity) {
      capacity = capacity ? 2 * capacity : 4096;
      text = realloc(text, capacity);
      if (!text)
        abort();
    }
    size_t read = fread(text + length, 1, capacity - length, file);
    length += read;
    if (read == 0) {
      if (ferror(file))
        error = errno ? errno : EIO;
      break;
    }
  }
  if (file)
    fclose(file);
  size_t count;
  if (error) {
    bp_primitive_error failure = {0, 0, ""};
    snprintf(failure.message, sizeof failure.message, "cannot read primitive file '%s': %s", path,
             strerror(error));
    if (max_errors)
      errors[0] = failure;
    count = 1;
  } else {
    count = bp_primitives_add_text(text ? text : "", length, errors, max_errors);
  }
  free(text);
  return count;
}
