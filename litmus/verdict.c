/* See verdict.h. */
#include "verdict.h"

#include "tso_model.h"
#include "variants.h"

#include <inttypes.h>
#include <stdio.h>

#if defined(__x86_64__) || defined(__i386__)
#define CPU_MODEL "x86-TSO"
#endif

const char *cpu_model_name(void) {
#ifdef CPU_MODEL
  return CPU_MODEL;
#else
  return NULL;
#endif
}

int cpu_model_allows(const struct litmus_test *test) {
#ifdef CPU_MODEL
  return tso_allows_forbidden(test);
#else
  (void)test;
  return -1;
#endif
}

const char *verdict_name(enum verdict verdict) {
  switch (verdict) {
  case VERDICT_CONFIRMED:
    return "confirmed";
  case VERDICT_WITNESSED:
    return "witnessed";
  case VERDICT_NOT_SHOWN:
    return "not shown by this CPU";
  default:
    return "CONTRADICTION";
  }
}

static const char *access_name(const struct litmus_test *test, int cpu, int which) {
  /* The side's accesses are steps 0 and step_count - 1; a barrier sits between. */
  const struct litmus_step *step = &test->steps[cpu][which == 0 ? 0 : test->step_count[cpu] - 1];
  return step->kind == LITMUS_STEP_STORE ? "store" : "load";
}

static bool store_then_load(const struct litmus_test *test, int cpu) {
  return test->steps[cpu][0].kind == LITMUS_STEP_STORE &&
         test->steps[cpu][test->step_count[cpu] - 1].kind == LITMUS_STEP_LOAD;
}

void describe_side(const struct litmus_test *test, int cpu, char *buffer, size_t size) {
  const char *barrier = test->barrier[cpu] == LITMUS_BARRIER_NONE
                            ? "no barrier"
                            : variant_barrier_spelling(test->barrier[cpu]);
  snprintf(buffer, size, "CPU %d's %s->%s (%s)", cpu, access_name(test, cpu, 0),
           access_name(test, cpu, 1), barrier);
}

/* "CPU 0's load->load (no barrier) and CPU 1's ..." for the broken sides. */
static void describe_broken_sides(const struct litmus_test *test, bool only_store_load,
                                  char *buffer, size_t size) {
  size_t used = 0;
  buffer[0] = '\0';
  for (int cpu = 0; cpu < 2; cpu++) {
    if (test->expectation[cpu] == LITMUS_SIDE_CORRECT)
      continue;
    if (only_store_load && !store_then_load(test, cpu))
      continue;
    char side[96];
    describe_side(test, cpu, side, sizeof side);
    int written =
        snprintf(buffer + used, used < size ? size - used : 0, "%s%s", used ? " and " : "", side);
    used += (size_t)written;
  }
}

void judge_test(const struct litmus_test *test, const struct run_result *result,
                struct judgement *judgement) {
  const bool correct = litmus_test_is_correct(test);
  const bool seen = result->witnesses > 0;
  char sides[256];
  judgement->cpu_model = cpu_model_name();
  judgement->cpu_model_allows = cpu_model_allows(test);
  judgement->surprising = seen && judgement->cpu_model_allows == 0;

  if (correct) {
    judgement->verdict = seen ? VERDICT_CONTRADICTION : VERDICT_CONFIRMED;
    if (seen)
      snprintf(judgement->reason, sizeof judgement->reason,
               "the forbidden outcome appeared %" PRIu64 " times in %" PRIu64
               " runs under barriers the table calls enough",
               result->witnesses, result->iterations);
    else
      snprintf(judgement->reason, sizeof judgement->reason,
               "the table's barriers held over %" PRIu64 " runs", result->iterations);
    return;
  }

  describe_broken_sides(test, false, sides, sizeof sides);
  if (seen) {
    judgement->verdict = VERDICT_WITNESSED;
    int written = snprintf(judgement->reason, sizeof judgement->reason,
                           "this CPU produced the forbidden outcome %" PRIu64 " times in %" PRIu64
                           " runs; the variant leaves %s unenforced",
                           result->witnesses, result->iterations, sides);
    if (judgement->surprising && written > 0 && (size_t)written < sizeof judgement->reason)
      snprintf(judgement->reason + written, sizeof judgement->reason - (size_t)written,
               "; but %s forbids this outcome: suspect the harness or the compiler",
               judgement->cpu_model);
    return;
  }

  judgement->verdict = VERDICT_NOT_SHOWN;
  if (judgement->cpu_model_allows == 0) {
    snprintf(judgement->reason, sizeof judgement->reason,
             "%s only lets a load pass an earlier store; this variant leaves only %s unenforced, "
             "which this CPU keeps in order anyway",
             judgement->cpu_model, sides);
  } else if (judgement->cpu_model_allows == 1) {
    char relaxed[256];
    describe_broken_sides(test, true, relaxed, sizeof relaxed);
    snprintf(judgement->reason, sizeof judgement->reason,
             "%s allows it through %s, but it did not appear in %" PRIu64 " runs%s",
             judgement->cpu_model, relaxed, result->iterations,
             result->shared_cpus ? " (more threads than CPUs: the threads seldom overlap)" : "");
  } else {
    snprintf(judgement->reason, sizeof judgement->reason,
             "it did not appear in %" PRIu64 " runs; the variant leaves %s unenforced",
             result->iterations, sides);
  }
}
