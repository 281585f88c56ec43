/* The annotation grammar (docs/annotations.md), read from a file's text.
 *
 * One pass over the text finds the comments, the annotation macros and the
 * lines that hold code; a second reads each comment's words. Strings and
 * character literals are skipped, so a "barrierpair:" inside one is not an
 * annotation. Columns count bytes from 1, as clang's do. */
#include "annotation_parse.h"
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
  size_t begin, end; /* the text between the comment's delimiters */
  uint32_t first_line, last_line;
} comment_span;

typedef struct {
  const char *text;
  size_t length;
  uint32_t file;
  bp_vec line_starts; /* size_t: offset of each line's first byte; line n at n - 1 */
  bp_vec has_code;    /* bool per line, line n at n - 1 */
  bool line_has_code; /* the last line's */
  bp_vec comments;    /* comment_span */
  bp_vec macros;      /* pending: macros are handed on once every line's code is known */
  bp_annotation_sink sink;
  void *context;
} scanner;

typedef struct {
  bp_annotation annotation;
  char *name, *reason; /* malloc()ed */
} pending;

static uint32_t line_count(const scanner *s) {
  return (uint32_t)s->line_starts.count;
}

static void start_line(scanner *s, size_t offset) {
  *(size_t *)bp_vec_push(&s->line_starts) = offset;
  bp_vec_push(&s->has_code); /* zeroed: no code yet */
  s->line_has_code = false;
}

static void mark_code(scanner *s) {
  if (s->line_has_code)
    return;
  s->line_has_code = true;
  *(bool *)bp_vec_at(&s->has_code, s->has_code.count - 1) = true;
}

/* The place of byte `offset`. */
static bp_location location_of(const scanner *s, size_t offset) {
  size_t low = 0, high = s->line_starts.count;
  while (high - low > 1) {
    size_t middle = (low + high) / 2;
    if (*(size_t *)bp_vec_at(&s->line_starts, middle) <= offset)
      low = middle;
    else
      high = middle;
  }
  size_t start = *(size_t *)bp_vec_at(&s->line_starts, low);
  return (bp_location){s->file, (uint32_t)low + 1, (uint32_t)(offset - start) + 1};
}

static uint32_t next_code_line(const scanner *s, uint32_t after) {
  for (uint32_t line = after + 1; line <= line_count(s); line++) {
    if (*(bool *)bp_vec_at(&s->has_code, line - 1))
      return line;
  }
  return 0;
}

/* The C locale's classes, without a call per byte: the first pass reads
 * every byte of every file (identifier characters by a table: a lookup
 * costs less than the three comparisons). */
static const bool identifier_chars[256] = {
    ['a'] = true, ['b'] = true, ['c'] = true, ['d'] = true, ['e'] = true, ['f'] = true,
    ['g'] = true, ['h'] = true, ['i'] = true, ['j'] = true, ['k'] = true, ['l'] = true,
    ['m'] = true, ['n'] = true, ['o'] = true, ['p'] = true, ['q'] = true, ['r'] = true,
    ['s'] = true, ['t'] = true, ['u'] = true, ['v'] = true, ['w'] = true, ['x'] = true,
    ['y'] = true, ['z'] = true, ['A'] = true, ['B'] = true, ['C'] = true, ['D'] = true,
    ['E'] = true, ['F'] = true, ['G'] = true, ['H'] = true, ['I'] = true, ['J'] = true,
    ['K'] = true, ['L'] = true, ['M'] = true, ['N'] = true, ['O'] = true, ['P'] = true,
    ['Q'] = true, ['R'] = true, ['S'] = true, ['T'] = true, ['U'] = true, ['V'] = true,
    ['W'] = true, ['X'] = true, ['Y'] = true, ['Z'] = true, ['0'] = true, ['1'] = true,
    ['2'] = true, ['3'] = true, ['4'] = true, ['5'] = true, ['6'] = true, ['7'] = true,
    ['8'] = true, ['9'] = true, ['_'] = true};

static inline bool is_identifier_char(char c) {
  return identifier_chars[(unsigned char)c];
}

static inline bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/* ---- Macros: BARRIERPAIR_IGNORE("rule", "reason"), BARRIERPAIR_PAIRS_WITH(f) ---- */

typedef struct {
  char *text;
  size_t length, capacity;
} growing;

static void grow_push(growing *g, char c) {
  if (g->length + 2 > g->capacity) {
    g->capacity = g->capacity ? g->capacity * 2 : 64;
    g->text = realloc(g->text, g->capacity);
    if (!g->text)
      abort();
  }
  g->text[g->length++] = c;
  g->text[g->length] = '\0';
}

static size_t skip_blank(const scanner *s, size_t at) {
  while (at < s->length && is_space(s->text[at]))
    at++;
  return at;
}

/* One string literal or several adjacent ones, appended to `out`; returns
 * the offset after them, or 0 when there is none at `at`. */
static size_t read_strings(const scanner *s, size_t at, growing *out) {
  size_t end = 0;
  for (at = skip_blank(s, at); at < s->length && s->text[at] == '"'; at = skip_blank(s, at)) {
    for (at++; at < s->length && s->text[at] != '"' && s->text[at] != '\n'; at++) {
      if (s->text[at] == '\\' && at + 1 < s->length)
        at++;
      grow_push(out, s->text[at]);
    }
    if (at >= s->length || s->text[at] != '"')
      return 0;
    end = ++at;
  }
  return end;
}

static size_t read_identifier(const scanner *s, size_t at, growing *out) {
  at = skip_blank(s, at);
  size_t start = at;
  while (at < s->length && is_identifier_char(s->text[at]))
    grow_push(out, s->text[at++]);
  return at > start ? at : 0;
}

/* The macro whose name is [name, name + name_length); returns the offset
 * after its ')', or 0 when it is not an annotation (its definition, or
 * arguments of another shape). */
static size_t read_macro(scanner *s, size_t name, size_t name_length, bp_annotation_kind kind) {
  size_t at = skip_blank(s, name + name_length);
  if (at >= s->length || s->text[at] != '(')
    return 0;
  growing first = {0}, second = {0};
  grow_push(&first, '\0');
  grow_push(&second, '\0');
  first.length = second.length = 0;
  size_t end;
  if (kind == BP_ANNOTATION_IGNORE) {
    end = read_strings(s, at + 1, &first);
    if (end) {
      end = skip_blank(s, end);
      if (end < s->length && s->text[end] == ',') {
        end = read_strings(s, end + 1, &second);
        if (!end)
          second.length = 0;
      }
    }
  } else {
    end = read_strings(s, at + 1, &first);
    if (!end)
      end = read_identifier(s, at + 1, &first);
  }
  if (end)
    end = skip_blank(s, end);
  if (!end || end >= s->length || s->text[end] != ')') {
    free(first.text);
    free(second.text);
    return 0;
  }
  end++;
  bp_location where = location_of(s, name);
  uint32_t last_line = where.line; /* the lines after `name` are not counted yet */
  for (size_t i = name; i < end; i++)
    last_line += s->text[i] == '\n';
  pending *macro = bp_vec_push(&s->macros);
  macro->annotation = (bp_annotation){.kind = kind,
                                      .macro = true,
                                      .location = where,
                                      .first_line = where.line,
                                      .last_line = last_line};
  macro->name = first.text;
  macro->reason = second.text;
  return end;
}

/* ---- The first pass: comments, macros and lines with code ---- */

static size_t skip_literal(scanner *s, size_t at) {
  char quote = s->text[at];
  for (at++; at < s->length && s->text[at] != quote && s->text[at] != '\n'; at++) {
    if (s->text[at] == '\\' && at + 1 < s->length && s->text[at + 1] != '\n')
      at++;
  }
  return at < s->length && s->text[at] == quote ? at + 1 : at;
}

/* A comment from `at` (its "//" or "/\*"); returns the offset after it. */
static size_t read_comment(scanner *s, size_t at) {
  bool block = s->text[at + 1] == '*';
  comment_span span = {.begin = at + 2, .first_line = line_count(s)};
  size_t i = at + 2;
  for (; i < s->length; i++) {
    if (block && s->text[i] == '*' && i + 1 < s->length && s->text[i + 1] == '/')
      break;
    if (s->text[i] == '\n') {
      bool continued = i > 0 && s->text[i - 1] == '\\';
      if (!block && !continued)
        break;
      start_line(s, i + 1);
    }
  }
  span.end = i;
  span.last_line = line_count(s);
  *(comment_span *)bp_vec_push(&s->comments) = span;
  return block && i < s->length ? i + 2 : i;
}

/* What ends a skip over a line that holds code (first_pass). */
static const bool stops_code_line[256] = {
    ['\n'] = true, ['/'] = true, ['"'] = true, ['\''] = true, ['B'] = true};

static void first_pass(scanner *s) {
  start_line(s, 0);
  bool directive = false, line_started = false;
  for (size_t at = 0; at < s->length;) {
    /* Once a line holds code, only a line's end, a comment, a literal and
     * the first letter of an annotation macro change anything: the rest of
     * the line is skipped a byte at a time, by a table. */
    if (s->line_has_code) {
      while (at < s->length && !stops_code_line[(unsigned char)s->text[at]])
        at++;
      if (at >= s->length)
        break;
    }
    char c = s->text[at];
    if (c == ' ') { /* the commonest byte of C text */
      at++;
      continue;
    }
    if (c == '\n') {
      start_line(s, ++at);
      directive = line_started = false;
      continue;
    }
    if (is_space(c)) {
      at++;
      continue;
    }
    if (c == '/' && at + 1 < s->length && (s->text[at + 1] == '/' || s->text[at + 1] == '*')) {
      at = read_comment(s, at);
      continue;
    }
    if (!line_started)
      directive = c == '#';
    line_started = true;
    if (c == '"' || c == '\'') {
      mark_code(s);
      at = skip_literal(s, at);
      continue;
    }
    if (is_identifier_char(c) && (at == 0 || !is_identifier_char(s->text[at - 1]))) {
      size_t end = at;
      while (end < s->length && is_identifier_char(s->text[end]))
        end++;
      static const char ignore[] = "BARRIERPAIR_IGNORE", pairs[] = "BARRIERPAIR_PAIRS_WITH";
      size_t after = 0;
      if (!directive && end - at == sizeof ignore - 1 &&
          memcmp(s->text + at, ignore, end - at) == 0)
        after = read_macro(s, at, end - at, BP_ANNOTATION_IGNORE);
      else if (!directive && end - at == sizeof pairs - 1 &&
               memcmp(s->text + at, pairs, end - at) == 0)
        after = read_macro(s, at, end - at, BP_ANNOTATION_PAIRS_WITH);
      if (after) {
        /* lines the macro spans */
        for (size_t i = at; i < after; i++) {
          if (s->text[i] == '\n')
            start_line(s, i + 1);
        }
        at = after;
        continue;
      }
      mark_code(s);
      at = end;
      continue;
    }
    mark_code(s);
    at++;
  }
}

/* ---- The second pass: the words of each comment ---- */

/* A comment's words with line breaks, the '*' that starts a block comment's
 * continuation lines, tabs and runs of spaces made single spaces; `origin` maps each
 * character back to its offset in the file. */
typedef struct {
  char *text;
  size_t *origin;
  size_t length;
} words;

static words comment_words(const scanner *s, const comment_span *span) {
  words w = {malloc(span->end - span->begin + 1),
             malloc((span->end - span->begin + 1) * sizeof(size_t)), 0};
  if (!w.text || !w.origin)
    abort();
  for (size_t i = span->begin; i < span->end; i++) {
    char c = s->text[i];
    if (c == '\n' || c == '\r') {
      while (i + 1 < span->end && is_space(s->text[i + 1]))
        i++;
      if (i + 1 < span->end && s->text[i + 1] == '*')
        i++;
      c = ' ';
    } else if (c == '\t') {
      c = ' ';
    }
    if (c == ' ' && w.length && w.text[w.length - 1] == ' ')
      continue; /* one space stands for any run */
    w.text[w.length] = c;
    w.origin[w.length++] = i;
  }
  w.text[w.length] = '\0';
  return w;
}

static size_t skip_spaces(const words *w, size_t at) {
  while (at < w->length && w->text[at] == ' ')
    at++;
  return at;
}

/* Whether `word` (lower case, may hold single spaces that match runs of
 * spaces) starts at `at` and ends there; returns the offset after it or 0. */
static size_t match_word(const words *w, size_t at, const char *word) {
  for (const char *p = word; *p; p++) {
    if (*p == ' ') {
      if (at >= w->length || w->text[at] != ' ')
        return 0;
      at = skip_spaces(w, at);
      continue;
    }
    if (at >= w->length || tolower((unsigned char)w->text[at]) != *p)
      return 0;
    at++;
  }
  if (at < w->length && (is_identifier_char(w->text[at]) || w->text[at] == '-'))
    return 0;
  return at;
}

static bool word_starts(const words *w, size_t at) {
  return at == 0 || !(is_identifier_char(w->text[at - 1]) || w->text[at - 1] == '-');
}

static char *copy_range(const words *w, size_t begin, size_t end) {
  while (begin < end && w->text[begin] == ' ')
    begin++;
  while (end > begin && (w->text[end - 1] == ' ' || w->text[end - 1] == '*'))
    end--;
  char *text = malloc(end - begin + 1);
  if (!text)
    abort();
  memcpy(text, w->text + begin, end - begin);
  text[end - begin] = '\0';
  return text;
}

static size_t identifier_end(const words *w, size_t at) {
  while (at < w->length && is_identifier_char(w->text[at]))
    at++;
  return at;
}

static void emit(const scanner *s, const comment_span *span, const words *w, size_t at,
                 bp_annotation_kind kind, char *name, char *reason) {
  bp_annotation annotation = {.kind = kind,
                              .location = location_of(s, w->origin[at]),
                              .first_line = span->first_line,
                              .last_line = span->last_line,
                              .next_code_line = next_code_line(s, span->last_line),
                              .name = name,
                              .reason = reason ? reason : ""};
  s->sink(s->context, &annotation);
  free(name);
  free(reason);
}

static const char keyword[] = "barrierpair:";

static size_t next_keyword(const words *w, size_t from) {
  for (size_t at = from; at + sizeof keyword - 1 <= w->length; at++) {
    if (word_starts(w, at) && match_word(w, at, "barrierpair") &&
        w->text[at + sizeof keyword - 2] == ':')
      return at;
  }
  return w->length;
}

/* "barrierpair: ignore <rule>: <reason>" and "barrierpair: pairs with <f>";
 * returns whether the comment held one. Other text after "barrierpair:" is
 * prose. */
static bool read_own_annotations(const scanner *s, const comment_span *span, const words *w) {
  bool found = false;
  for (size_t at = next_keyword(w, 0); at < w->length;) {
    size_t next = next_keyword(w, at + 1);
    size_t after = skip_spaces(w, at + sizeof keyword - 1), rest;
    if ((rest = match_word(w, after, "ignore"))) {
      size_t rule = skip_spaces(w, rest), rule_end = rule;
      while (rule_end < next && (is_identifier_char(w->text[rule_end]) || w->text[rule_end] == '-'))
        rule_end++;
      size_t reason = skip_spaces(w, rule_end);
      if (reason < next && w->text[reason] == ':')
        reason++;
      emit(s, span, w, at, BP_ANNOTATION_IGNORE, copy_range(w, rule, rule_end),
           copy_range(w, reason < next ? reason : next, next));
      found = true;
    } else if ((rest = match_word(w, after, "pairs with"))) {
      size_t function = skip_spaces(w, rest);
      emit(s, span, w, at, BP_ANNOTATION_PAIRS_WITH,
           copy_range(w, function, identifier_end(w, function)), NULL);
      found = true;
    }
    at = next;
  }
  return found;
}

/* A name that is a primitive or a barrier, not a function of the program:
 * "smp_wmb", "WRITE_ONCE", "barrier". */
static bool names_a_primitive(const char *name, size_t length) {
  if (bp_primitive_find(name, length) != BP_NO_PRIMITIVE)
    return true;
  static const char *const prefixes[] = {"smp_",    "cmm_", "atomic_",  "__atomic_",
                                         "__sync_", "rcu_", "uatomic_", "atomic_thread_fence"};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t prefix = strlen(prefixes[i]);
    if (length >= prefix && strncmp(name, prefixes[i], prefix) == 0)
      return true;
  }
  static const char *const words_of_barriers[] = {"barrier", "mb", "rmb", "wmb", "comment"};
  for (size_t i = 0; i < sizeof words_of_barriers / sizeof words_of_barriers[0]; i++) {
    if (strlen(words_of_barriers[i]) == length && strncmp(name, words_of_barriers[i], length) == 0)
      return true;
  }
  bool upper = true; /* a macro: READ_ONCE, LOCK */
  for (size_t i = 0; i < length; i++)
    upper = upper && !islower((unsigned char)name[i]);
  return upper;
}

static bool is_stopword(const words *w, size_t begin, size_t end) {
  static const char *const stopwords[] = {"this", "the", "a", "an", "that", "its", "which"};
  for (size_t i = 0; i < sizeof stopwords / sizeof stopwords[0]; i++) {
    if (strlen(stopwords[i]) == end - begin &&
        strncmp(w->text + begin, stopwords[i], end - begin) == 0)
      return true;
  }
  return false;
}

/* A name written without parentheses is a function when it reads as one:
 * an identifier with an underscore or a digit (`alloc_swap_info`), or a
 * function's labelled step (`wake_klogd:A`); a plain word after "pairs
 * with" is prose ("pairs with the load of ..."). */
static bool names_a_function(const words *w, size_t begin, size_t end) {
  for (size_t i = begin; i < end; i++) {
    if (w->text[i] == '_' || isdigit((unsigned char)w->text[i]))
      return true;
  }
  return end + 1 < w->length && w->text[end] == ':' && isupper((unsigned char)w->text[end + 1]);
}

/* A clause ends at a full stop, a semicolon, a comma or a colon that is no
 * step's label (`wake_klogd:A`). */
static bool ends_clause(const words *w, size_t at) {
  char c = w->text[at];
  return strchr(".;,", c) || (c == ':' && (at + 1 >= w->length || w->text[at + 1] == ' '));
}

/* After a call's name: its parenthesised arguments, if any. */
static size_t skip_call(const words *w, size_t at, bool *called) {
  *called = false;
  if (at >= w->length || w->text[at] != '(')
    return at;
  int depth = 0;
  for (; at < w->length; at++) {
    depth += w->text[at] == '(';
    depth -= w->text[at] == ')';
    if (depth == 0) {
      *called = true;
      return at + 1;
    }
  }
  return at;
}

/* The kernel's convention: "Pairs with smp_wmb() in foo()", "paired with
 * foo()", "See the smp_mb() in bar()", "Matches the smp_rmb() in baz()".
 * The first phrase of the comment that names a function counts. */
static void read_convention(const scanner *s, const comment_span *span, const words *w) {
  static const struct {
    const char *words;
    bool bare_name; /* "pairs with foo" names foo without parentheses */
  } triggers[] = {{"pairs with", true},   {"paired with", true}, {"pair with", true},
                  {"pairing with", true}, {"matches", false},    {"matching", false},
                  {"see", false}};
  for (size_t at = 0; at < w->length; at++) {
    if (!word_starts(w, at))
      continue;
    for (size_t t = 0; t < sizeof triggers / sizeof triggers[0]; t++) {
      size_t after = match_word(w, at, triggers[t].words);
      if (!after)
        continue;
      size_t name = skip_spaces(w, after);
      size_t article;
      if ((article = match_word(w, name, "the")) || (article = match_word(w, name, "a")) ||
          (article = match_word(w, name, "an")))
        name = skip_spaces(w, article);
      size_t name_end = identifier_end(w, name);
      if (name_end == name)
        continue;
      bool called;
      size_t clause = skip_call(w, name_end, &called);
      /* "... in <function>" before the clause ends; "in READ_ONCE() in
       * foo()" goes on past the primitive */
      size_t function = 0, function_end = 0;
      for (size_t i = clause; i < w->length && !ends_clause(w, i); i++) {
        size_t in;
        if (!word_starts(w, i) ||
            !((in = match_word(w, i, "in")) || (in = match_word(w, i, "within"))))
          continue;
        size_t f = skip_spaces(w, in), f_end = identifier_end(w, f);
        if (f_end == f || is_stopword(w, f, f_end))
          break;
        if (!names_a_primitive(w->text + f, f_end - f)) {
          function = f;
          function_end = f_end;
          break;
        }
        i = f_end;
      }
      bool primitive = names_a_primitive(w->text + name, name_end - name);
      /* "See foo() for details", "See comment in pmd_install()": a pointer
       * to documentation, not to a partner */
      bool see = strcmp(triggers[t].words, "see") == 0;
      bool documentation =
          see && ((!function_end && match_word(w, skip_spaces(w, clause), "for")) ||
                  match_word(w, name, "comment") || match_word(w, name, "comments"));
      if (documentation)
        continue;
      if (!function_end && !primitive && !is_stopword(w, name, name_end) &&
          (called || (triggers[t].bare_name && names_a_function(w, name, name_end)))) {
        function = name;
        function_end = name_end;
      }
      if (function_end && (primitive || called || triggers[t].bare_name)) {
        emit(s, span, w, at, BP_ANNOTATION_COMMENT, copy_range(w, function, function_end), NULL);
        return;
      }
    }
  }
}

/* Whether a comment holds the first word of anything read from comments
 * (read_own_annotations' keyword, read_convention's triggers), in any case:
 * most comments hold none, and are not made into words. */
static bool may_annotate(const scanner *s, const comment_span *span) {
  static const char *const starts[] = {"barrierpair", "pair", "match", "see"};
  for (size_t at = span->begin; at < span->end; at++) {
    char first = (char)tolower((unsigned char)s->text[at]);
    if (first != 'b' && first != 'p' && first != 'm' && first != 's')
      continue;
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
      size_t length = strlen(starts[k]);
      if (starts[k][0] == first && at + length <= span->end &&
          strncasecmp(s->text + at, starts[k], length) == 0)
        return true;
    }
  }
  return false;
}

void bp_parse_annotations(const char *text, size_t length, uint32_t file, bp_annotation_sink sink,
                          void *context) {
  scanner s = {
      .text = text, .length = text ? length : 0, .file = file, .sink = sink, .context = context};
  bp_vec_init(&s.line_starts, sizeof(size_t));
  bp_vec_init(&s.has_code, sizeof(bool));
  bp_vec_init(&s.comments, sizeof(comment_span));
  bp_vec_init(&s.macros, sizeof(pending));
  first_pass(&s);
  for (size_t i = 0; i < s.macros.count; i++) {
    pending *macro = bp_vec_at(&s.macros, i);
    macro->annotation.next_code_line = next_code_line(&s, macro->annotation.last_line);
    macro->annotation.name = macro->name;
    macro->annotation.reason = macro->reason;
    sink(context, &macro->annotation);
    free(macro->name);
    free(macro->reason);
  }
  for (size_t i = 0; i < s.comments.count; i++) {
    const comment_span *span = bp_vec_at(&s.comments, i);
    if (!may_annotate(&s, span))
      continue;
    words w = comment_words(&s, span);
    if (!read_own_annotations(&s, span, &w))
      read_convention(&s, span, &w);
    free(w.text);
    free(w.origin);
  }
  bp_vec_free(&s.line_starts);
  bp_vec_free(&s.has_code);
  bp_vec_free(&s.comments);
  bp_vec_free(&s.macros);
}
