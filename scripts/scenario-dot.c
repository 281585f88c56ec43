/* scenario-dot: the pictures and per-row text of docs/scenarios.md, from the
 * engine's scenario table (bp_scenario_get), never from a copy of it.
 *
 *   scenario-dot dot N     Graphviz source for row N: one column per CPU in
 *                          program order, the barrier between the two
 *                          accesses, and the communication edges that close
 *                          the forbidden outcome's cycle
 *   scenario-dot markdown  one section per row for docs/scenarios.md
 *
 * The cycle is the same for every row: CPU 0's x access, then (barrier) its
 * y access, then CPU 1's y access, then (barrier) its x access, back to
 * CPU 0's x access. The kind of each communication edge follows from the
 * two accesses it joins; the values on it come from the row's BUG_ON()
 * expression, and are checked against the stores (a row whose BUG_ON()
 * does not describe that cycle stops the program).
 *
 * Built by scripts/render-docs.sh against the engine library. C11. */
#include "barrierpair/barrierpair.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_STATEMENTS = 4, TEXT = 64 };

typedef struct {
  char text[TEXT];  /* as the article writes it: "r1 = CAO(x)" */
  bool is_access;   /* otherwise a barrier */
  bool is_store;
  char variable;    /* 'x' or 'y' */
  char reg[8];      /* loads: "r1" */
  int value;        /* stores: the value stored */
} statement;

typedef struct {
  statement s[MAX_STATEMENTS];
  int count;
} cpu_code;

static _Noreturn void fail(int row, const char *what, const char *text) {
  fprintf(stderr, "scenario-dot: scenario %d: %s: '%s'\n", row, what, text);
  exit(1);
}

static void trim_copy(char *out, const char *begin, const char *end) {
  while (begin < end && isspace((unsigned char)*begin))
    begin++;
  while (end > begin && isspace((unsigned char)end[-1]))
    end--;
  size_t n = (size_t)(end - begin);
  if (n >= TEXT)
    n = TEXT - 1;
  memcpy(out, begin, n);
  out[n] = '\0';
}

/* "r1 = CAO(x)" is a load, "CAO(y) = 1" a store, anything else a barrier. */
static void classify(int row, statement *st) {
  char var, reg[8];
  int value;
  if (sscanf(st->text, "CAO(%c) = %d", &var, &value) == 2) {
    st->is_access = st->is_store = true;
    st->variable = var;
    st->value = value;
  } else if (sscanf(st->text, "%7[r0-9] = CAO(%c)", reg, &var) == 2) {
    st->is_access = true;
    st->variable = var;
    strcpy(st->reg, reg);
  } else if (strncmp(st->text, "cmm_", 4) != 0) {
    fail(row, "neither an access nor a barrier", st->text);
  }
}

static cpu_code parse_code(int row, const char *code) {
  cpu_code out = {.count = 0};
  const char *p = code;
  while (*p) {
    const char *semicolon = strchr(p, ';');
    const char *end = semicolon ? semicolon : p + strlen(p);
    char text[TEXT];
    trim_copy(text, p, end);
    if (text[0]) {
      if (out.count == MAX_STATEMENTS)
        fail(row, "too many statements", code);
      statement *st = &out.s[out.count++];
      memset(st, 0, sizeof(*st));
      strcpy(st->text, text);
      classify(row, st);
    }
    p = semicolon ? semicolon + 1 : end;
  }
  return out;
}

/* The value BUG_ON() gives `name` ("r1", "x"), or fail. */
static int bug_on_value(int row, const char *bug_on, const char *name) {
  const char *p = bug_on;
  size_t len = strlen(name);
  if (len == 0)
    fail(row, "an access without a name", bug_on);
  while ((p = strstr(p, name)) != NULL) {
    bool starts = p == bug_on || !isalnum((unsigned char)p[-1]);
    int value;
    if (starts && !isalnum((unsigned char)p[len]) && sscanf(p + len, " == %d", &value) == 1)
      return value;
    p += len;
  }
  fail(row, "BUG_ON() says nothing of", name);
}

typedef struct {
  cpu_code cpu[4];
  const statement *x0, *y0, *y1, *x1; /* the four accesses of the cycle */
} row_code;

static const statement *access_at(const cpu_code *code, int which) {
  int seen = 0;
  for (int i = 0; i < code->count; i++)
    if (code->s[i].is_access && seen++ == which)
      return &code->s[i];
  return NULL;
}

static void parse_row(const bp_scenario *row, row_code *out) {
  for (int cpu = 0; cpu < 4; cpu++)
    out->cpu[cpu] = parse_code(row->number, row->code[cpu]);
  out->x0 = access_at(&out->cpu[0], 0);
  out->y0 = access_at(&out->cpu[0], 1);
  out->y1 = access_at(&out->cpu[1], 0);
  out->x1 = access_at(&out->cpu[1], 1);
  if (!out->x0 || !out->y0 || !out->y1 || !out->x1 || out->x0->variable != 'x' ||
      out->y0->variable != 'y' || out->y1->variable != 'y' || out->x1->variable != 'x')
    fail(row->number, "CPU 0 must access x then y, CPU 1 y then x", row->code[0]);
  int number = bp_scenario_number(out->x0->is_store, out->y0->is_store, out->y1->is_store,
                                  out->x1->is_store);
  if (number != row->number)
    fail(row->number, "the code is another scenario's", row->code[0]);
}

/* ---- dot ---- */

static const char *node_name(int cpu, int index) {
  static char names[8][16];
  static int next;
  char *name = names[next++ % 8];
  snprintf(name, 16, "c%d_%d", cpu, index);
  return name;
}

/* Where in `code` (of CPU `cpu`) the statement `st` sits. */
static int index_of(const cpu_code *code, const statement *st) {
  return (int)(st - code->s);
}

static void print_edge(const char *from, const char *to, const char *kind, const char *label) {
  printf("  %s -> %s [class=\"%s\", label=\"%s\", color=\"#c0392b\", fontcolor=\"#c0392b\", "
         "style=dashed, constraint=false];\n",
         from, to, kind, label);
}

/* The communication from access `a` (earlier in the cycle) to access `b` of
 * the same variable; `extra` is the CPU that stores that variable when
 * neither does. */
static void print_communication(const bp_scenario *row, const row_code *code, int cpu_a,
                                const statement *a, int cpu_b, const statement *b, int extra) {
  char from[16], to[16], label[64];
  snprintf(from, sizeof from, "%s", node_name(cpu_a, index_of(&code->cpu[cpu_a], a)));
  snprintf(to, sizeof to, "%s", node_name(cpu_b, index_of(&code->cpu[cpu_b], b)));
  if (a->is_store && !b->is_store) { /* b reads a's value */
    int seen = bug_on_value(row->number, row->bug_on, b->reg);
    if (seen != a->value)
      fail(row->number, "a read-from edge whose load does not see the store", row->bug_on);
    snprintf(label, sizeof label, "rf: %s == %d", b->reg, seen);
    print_edge(from, to, "rf", label);
  } else if (!a->is_store && b->is_store) { /* a reads the value before b's */
    int seen = bug_on_value(row->number, row->bug_on, a->reg);
    if (seen == b->value)
      fail(row->number, "a from-read edge whose load sees the store", row->bug_on);
    snprintf(label, sizeof label, "fr: %s == %d", a->reg, seen);
    print_edge(from, to, "fr", label);
  } else if (a->is_store && b->is_store) { /* b's store is the final one */
    char variable[2] = {a->variable, '\0'};
    int final = bug_on_value(row->number, row->bug_on, variable);
    if (final != b->value)
      fail(row->number, "a coherence edge whose later store is not the final value", row->bug_on);
    snprintf(label, sizeof label, "co: %c == %d", a->variable, final);
    print_edge(from, to, "co", label);
  } else { /* two loads: a reads before the extra CPU's store, b reads it */
    const statement *store = access_at(&code->cpu[extra], 0);
    if (!store || !store->is_store || store->variable != a->variable)
      fail(row->number, "two loads of a variable that no extra CPU stores", row->code[extra]);
    char middle[16];
    snprintf(middle, sizeof middle, "%s", node_name(extra, index_of(&code->cpu[extra], store)));
    int before = bug_on_value(row->number, row->bug_on, a->reg);
    int after = bug_on_value(row->number, row->bug_on, b->reg);
    if (before == store->value || after != store->value)
      fail(row->number, "the extra CPU's store is not between the two loads", row->bug_on);
    snprintf(label, sizeof label, "fr: %s == %d", a->reg, before);
    print_edge(from, middle, "fr", label);
    snprintf(label, sizeof label, "rf: %s == %d", b->reg, after);
    print_edge(middle, to, "rf", label);
  }
}

/* Text inside a Graphviz HTML label. */
static void print_html(const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '&')
      fputs("&amp;", stdout);
    else if (*p == '<')
      fputs("&lt;", stdout);
    else if (*p == '>')
      fputs("&gt;", stdout);
    else
      putchar(*p);
  }
}

static void print_dot(const bp_scenario *row) {
  row_code code;
  parse_row(row, &code);
  printf("// Generated by scripts/scenario-dot.c from include/barrierpair/scenarios.def.\n");
  printf("digraph scenario_%02d {\n", row->number);
  printf("  graph [fontname=\"Helvetica\", fontsize=12, newrank=true, nodesep=0.6, "
         "ranksep=0.45, labelloc=t, label=<<b>Scenario %d%s",
         row->number, row->name[0] ? ": " : "");
  print_html(row->name);
  printf("</b><br/>forbidden: <font face=\"Courier\">");
  print_html(row->bug_on);
  printf("</font>>];\n");
  printf("  node [fontname=\"Courier\", fontsize=11, shape=box, style=\"rounded,filled\", "
         "fillcolor=\"#ffffff\"];\n");
  printf("  edge [fontname=\"Helvetica\", fontsize=10];\n");
  for (int cpu = 0; cpu < 4; cpu++) {
    const cpu_code *c = &code.cpu[cpu];
    if (c->count == 0)
      continue;
    printf("  subgraph cluster_cpu%d {\n    label=\"CPU %d\"; fontname=\"Helvetica\"; "
           "style=rounded; color=\"#7f8c8d\";\n",
           cpu, cpu);
    for (int i = 0; i < c->count; i++) {
      const statement *st = &c->s[i];
      if (st->is_access)
        printf("    %s [label=\"%s\", fillcolor=\"%s\"];\n", node_name(cpu, i), st->text,
               st->is_store ? "#d6eaf8" : "#e8f8f5");
      else
        printf("    %s [label=\"%s\", shape=box, style=filled, fillcolor=\"#f5b041\", "
               "height=0.25];\n",
               node_name(cpu, i), st->text);
    }
    for (int i = 0; i + 1 < c->count; i++)
      printf("    %s -> %s [class=\"po\", label=\"po\", color=\"#2c3e50\"];\n",
             node_name(cpu, i), node_name(cpu, i + 1));
    printf("  }\n");
  }
  /* First statements side by side. */
  printf("  { rank=same;");
  for (int cpu = 0; cpu < 4; cpu++)
    if (code.cpu[cpu].count)
      printf(" %s;", node_name(cpu, 0));
  printf(" }\n");
  print_communication(row, &code, 0, code.y0, 1, code.y1, 3);
  print_communication(row, &code, 1, code.x1, 0, code.x0, 2);
  printf("}\n");
}

/* ---- markdown ---- */

static const char *barrier_name(char letter) {
  return letter == 'r' ? "cmm_smp_rmb()" : letter == 'w' ? "cmm_smp_wmb()" : "cmm_smp_mb()";
}

/* The story with {0} {1} {x} {y} filled in. */
static void print_story(const char *story) {
  for (const char *p = story; *p; p++) {
    if (p[0] == '{' && p[1] && p[2] == '}') {
      switch (p[1]) {
      case '0':
        fputs("CPU 0", stdout);
        break;
      case '1':
        fputs("CPU 1", stdout);
        break;
      default:
        printf("`%c`", p[1]);
      }
      p += 2;
    } else {
      putchar(*p);
    }
  }
}

static void print_side(const row_code *code, const bp_scenario *row, int cpu) {
  char letter = row->barrier[cpu];
  const statement *first = cpu == 0 ? code->x0 : code->y1;
  const statement *second = cpu == 0 ? code->y0 : code->x1;
  printf("CPU %d needs `%s`", cpu, barrier_name(letter));
  if (letter == 'r')
    printf(", or an acquire load of `%c` in place of its first load and the barrier", first->variable);
  else if (letter == 'w')
    printf(", or a release store to `%c` in place of the barrier and its second store",
           second->variable);
  else
    printf(" (a %s followed by a %s: no acquire or release form is enough)",
           first->is_store ? "store" : "load", second->is_store ? "store" : "load");
}

static void print_markdown(void) {
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    const bp_scenario *row = bp_scenario_get(n);
    row_code code;
    parse_row(row, &code);
    printf("<a id=\"scenario-%d\"></a>\n\n### Scenario %d%s%s\n\n", n, n, row->name[0] ? ": " : "",
           row->name);
    printf("![Scenario %d: the forbidden cycle](pictures/scenario-%02d.svg)\n\n", n, n);
    printf("**Forbidden:** `%s`: ", row->bug_on);
    print_story(row->story);
    printf(".\n\n**Barriers:** ");
    print_side(&code, row, 0);
    printf("; ");
    print_side(&code, row, 1);
    printf(".");
    int mirror = bp_scenario_mirror(n);
    if (mirror == n)
      printf(" The row is its own mirror.\n\n");
    else
      printf(" Seen from CPU 1 it is [scenario %d](#scenario-%d).\n\n", mirror, mirror);
    /* scripts/litmus-summary.py puts this CPU's litmus results here. */
    printf("<!-- litmus %d -->\n\n", n);
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "dot") == 0) {
    char *end;
    long n = strtol(argv[2], &end, 10);
    if (*end || !bp_scenario_get((int)n)) {
      fprintf(stderr, "scenario-dot: no scenario '%s' (0 to %d)\n", argv[2],
              BP_SCENARIO_COUNT - 1);
      return 2;
    }
    print_dot(bp_scenario_get((int)n));
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "markdown") == 0) {
    print_markdown();
    return 0;
  }
  fprintf(stderr, "usage: %s dot N | markdown\n", argv[0]);
  return 2;
}
