/* barrierpair-tables: prints the scenario and primitive tables as Markdown,
 * so the docs show the table the analyzer reads rather than a copy. */
#include "barrierpair/barrierpair.h"

#include <stdio.h>
#include <string.h>

static const char *barrier_text(char letter) {
  switch (letter) {
  case 'r':
    return "`cmm_smp_rmb()`";
  case 'w':
    return "`cmm_smp_wmb()`";
  default:
    return "`cmm_smp_mb()`";
  }
}

static void print_code(const char *code) {
  if (code[0])
    printf(" `%s` |", code);
  else
    printf(" |");
}

static void print_scenarios(void) {
  printf("| # | name | CPU 0 | CPU 1 | CPU 2 | CPU 3 | forbidden (`BUG_ON`) | "
         "weakest CPU 0 | weakest CPU 1 | mirror |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    const bp_scenario *row = bp_scenario_get(n);
    printf("| %d | %s |", n, row->name);
    for (int cpu = 0; cpu < 4; cpu++)
      print_code(row->code[cpu]);
    printf(" `%s` | %s | %s | %d |\n", row->bug_on, barrier_text(row->barrier[0]),
           barrier_text(row->barrier[1]), bp_scenario_mirror(n));
  }
}

static const char *const op_names[] = {
    [BP_OP_FENCE] = "fence",
    [BP_OP_LOAD] = "load",
    [BP_OP_STORE] = "store",
    [BP_OP_RMW] = "read-modify-write",
    [BP_OP_ACCESS] = "marked lvalue",
    [BP_OP_LOCK] = "lock",
    [BP_OP_UNLOCK] = "unlock",
    [BP_OP_SPAWN] = "starts a thread",
    [BP_OP_JOIN] = "waits for a thread",
    [BP_OP_OR] = "read-modify-write: or",
    [BP_OP_AND] = "read-modify-write: and",
    [BP_OP_XOR] = "read-modify-write: xor",
    [BP_OP_BIT] = "read-modify-write of one bit",
    [BP_OP_READ_LOCK] = "reader lock",
    [BP_OP_LOCK_HELD] = "lock held",
    [BP_OP_EXCUSE] = "race excused",
    [BP_OP_TRYLOCK] = "lock where it returns non-zero",
    [BP_OP_TRYLOCK_ZERO] = "lock where it returns zero",
    [BP_OP_READ_TRYLOCK] = "reader lock where it returns non-zero",
    [BP_OP_READ_TRYLOCK_ZERO] = "reader lock where it returns zero",
    [BP_OP_MARKED_BEGIN] = "accesses marked from here",
    [BP_OP_MARKED_END] = "accesses marked until here",
    [BP_OP_MARKED_NEXT] = "accesses marked from here, until its 0",
    [BP_OP_SELF] = "the running thread's own object",
    [BP_OP_INIT] = "sets up a lock"};
static const char *const order_names[] = {[BP_ORDER_COMPILER] = "compiler only",
                                          [BP_ORDER_RELAXED] = "relaxed",
                                          [BP_ORDER_RMB] = "rmb",
                                          [BP_ORDER_WMB] = "wmb",
                                          [BP_ORDER_MB] = "mb",
                                          [BP_ORDER_CONSUME] = "consume",
                                          [BP_ORDER_ACQUIRE] = "acquire",
                                          [BP_ORDER_RELEASE] = "release",
                                          [BP_ORDER_ACQ_REL] = "acq_rel",
                                          [BP_ORDER_SEQ_CST] = "seq_cst",
                                          [BP_ORDER_PUBLISH] = "release, publishing",
                                          [BP_ORDER_FROM_ARG] = "from the order argument",
                                          [BP_ORDER_MEMBARRIER] = "membarrier",
                                          [BP_ORDER_UNLOCK_LOCK] =
                                              "mb, with an earlier unlock and the lock it follows"};

static void print_primitives(void) {
  printf("| name | family | kind | ordering |\n|---|---|---|---|\n");
  for (size_t i = 0; i < bp_primitive_count(); i++) {
    const bp_primitive *p = bp_primitive_get((int)i);
    printf("| `%s` | %s | %s | %s |\n", p->name, bp_family_name(p->family), op_names[p->op],
           order_names[p->order]);
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "scenarios") == 0) {
    print_scenarios();
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "primitives") == 0) {
    print_primitives();
    return 0;
  }
  fprintf(stderr, "usage: %s scenarios|primitives\n", argv[0]);
  return 2;
}
