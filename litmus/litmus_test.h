/* What a generated litmus test gives the harness.
 *
 * barrierpair-litmus-gen writes one C file per (scenario row, barrier variant)
 * from include/barrierpair/scenarios.def. Each file holds the row's threads
 * as functions named cpu0..cpu3 and one `struct litmus_test` that describes
 * them; the hand-written harness runs them. Nothing in this header restates
 * the scenario table: every value in a `struct litmus_test` comes from it.
 */
#ifndef BARRIERPAIR_LITMUS_TEST_H
#define BARRIERPAIR_LITMUS_TEST_H

#include <stdbool.h>
#include <stddef.h>

/* The shared variables x and y are global arrays with one slot per test
 * instance (see shared_memory.c). The harness runs many instances per
 * synchronisation, as litmus7 does, and may spread them LITMUS_MAX_STRIDE
 * slots apart so that each instance has cache lines of its own. */
#define LITMUS_MAX_INSTANCES 8192
#define LITMUS_MAX_STRIDE 16
#define LITMUS_SLOTS (LITMUS_MAX_INSTANCES * LITMUS_MAX_STRIDE)

#define LITMUS_MAX_THREADS 4 /* CPU 0..3 of the article's table */
#define LITMUS_REGISTERS 4   /* r1..r4 */

/* The registers of one instance: r[0] is r1. A thread sets only the
 * registers it loads and leaves the others 0, so the harness adds up what
 * the threads return. Returned by value so that the generated functions
 * touch no memory but x and y: the analyzer sees exactly the article's
 * accesses. */
struct litmus_registers {
  int r[LITMUS_REGISTERS];
};

/* One thread of the test, run on instance slot `i`. */
typedef struct litmus_registers (*litmus_thread)(size_t i);

/* The final state of one instance: registers and the final x and y. */
struct litmus_outcome {
  int r[LITMUS_REGISTERS];
  int x, y;
};

/* The row's BUG_ON() expression, evaluated on an outcome. */
typedef bool (*litmus_condition)(const struct litmus_outcome *outcome);

/* Barriers as the variants hand them out, weakest first. */
enum litmus_barrier {
  LITMUS_BARRIER_NONE,
  LITMUS_BARRIER_RMB,
  LITMUS_BARRIER_WMB,
  LITMUS_BARRIER_MB
};

enum litmus_access { LITMUS_LOAD, LITMUS_STORE };

/* One step of a thread, as data: what the harness's models and reports read
 * (the compiled thread is what runs). */
enum litmus_step_kind { LITMUS_STEP_LOAD, LITMUS_STEP_STORE, LITMUS_STEP_BARRIER };

struct litmus_step {
  enum litmus_step_kind kind;
  char variable;               /* loads and stores: 'x' or 'y' */
  int reg;                     /* loads: k of rk */
  int value;                   /* stores: the value stored */
  enum litmus_barrier barrier; /* barriers */
};

#define LITMUS_MAX_STEPS 3 /* access, barrier, access */

/* What the analyzer should say about one side (CPU 0 or CPU 1). */
enum litmus_expectation {
  LITMUS_SIDE_CORRECT,
  LITMUS_SIDE_MISSING_BARRIER, /* rule missing-barrier */
  LITMUS_SIDE_WEAK_BARRIER     /* rule weak-barrier: too weak or the wrong kind */
};

struct litmus_test {
  const char *name; /* "S3+weakest": scenario and variant, litmus7 style */
  int scenario;
  const char *scenario_name; /* the article's name for the row, or "" */
  const char *variant;
  const char *variant_description;
  /* Per side (CPU 0, CPU 1): */
  enum litmus_barrier barrier[2]; /* what this variant puts there */
  enum litmus_barrier weakest[2]; /* the weakest the row allows */
  enum litmus_expectation expectation[2];
  /* The threads, indexed by CPU number; NULL when the row has no such CPU. */
  litmus_thread threads[LITMUS_MAX_THREADS];
  struct litmus_step steps[LITMUS_MAX_THREADS][LITMUS_MAX_STEPS];
  int step_count[LITMUS_MAX_THREADS];
  const char *code[LITMUS_MAX_THREADS]; /* each thread in the article's notation */
  unsigned registers;                   /* bit k set: the row loads into r(k+1) */
  bool shows_final_x, shows_final_y;    /* the forbidden outcome names final x / y */
  const char *bug_on;                   /* the forbidden outcome, as the article writes it */
  litmus_condition forbidden;
};

/* The table says this variant's barriers are enough on both sides. */
static inline bool litmus_test_is_correct(const struct litmus_test *test) {
  return test->expectation[0] == LITMUS_SIDE_CORRECT && test->expectation[1] == LITMUS_SIDE_CORRECT;
}

static inline int litmus_test_thread_count(const struct litmus_test *test) {
  int count = 0;
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++)
    count += test->threads[cpu] != NULL;
  return count;
}

/* Every generated test, in scenario order and, within a row, in the
 * generator's variant order (litmus_registry.c, generated). */
extern const struct litmus_test *const litmus_tests[];
extern const size_t litmus_test_count;

#endif
