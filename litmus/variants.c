/* The barrier variants of a scenario row; see variants.h. Whether a side is
 * broken comes from the engine's own strength masks (bp_scenario_need), so
 * the litmus verdicts and the analyzer cross-check judge by the same rule as
 * the analyzer does. */
#include "variants.h"

#include "barrierpair/barrierpair.h"

#include <stdio.h>

static unsigned strength_of(enum litmus_barrier barrier) {
  switch (barrier) {
  case LITMUS_BARRIER_RMB:
    return BP_STRENGTH_LOADS;
  case LITMUS_BARRIER_WMB:
    return BP_STRENGTH_STORES;
  case LITMUS_BARRIER_MB:
    return BP_STRENGTH_FULL;
  default:
    return BP_STRENGTH_NONE;
  }
}

static enum litmus_expectation judge(int number, int cpu, enum litmus_barrier barrier) {
  if (barrier == LITMUS_BARRIER_NONE)
    return LITMUS_SIDE_MISSING_BARRIER;
  unsigned need = bp_scenario_need(number, cpu);
  return (strength_of(barrier) & need) == need ? LITMUS_SIDE_CORRECT : LITMUS_SIDE_WEAK_BARRIER;
}

enum litmus_barrier variant_weakest_barrier(int number, int cpu) {
  switch (bp_scenario_need(number, cpu)) {
  case BP_STRENGTH_LOADS:
    return LITMUS_BARRIER_RMB;
  case BP_STRENGTH_STORES:
    return LITMUS_BARRIER_WMB;
  default:
    return LITMUS_BARRIER_MB;
  }
}

const char *variant_barrier_spelling(enum litmus_barrier barrier) {
  if (barrier == LITMUS_BARRIER_NONE)
    return "(none)";
  return bp_barrier_spelling(BP_FAMILY_URCU, strength_of(barrier));
}

const char *variant_expected_rule(enum litmus_expectation expectation) {
  switch (expectation) {
  case LITMUS_SIDE_MISSING_BARRIER:
    return bp_rule_name(BP_RULE_MISSING_BARRIER);
  case LITMUS_SIDE_WEAK_BARRIER:
    return bp_rule_name(BP_RULE_WEAK_BARRIER);
  default:
    return NULL;
  }
}

static void add(struct variant *variants, size_t *count, int number, const char *name,
                const char *description, enum litmus_barrier cpu0, enum litmus_barrier cpu1) {
  struct variant *variant = &variants[(*count)++];
  snprintf(variant->name, sizeof variant->name, "%s", name);
  variant->description = description;
  variant->barrier[0] = cpu0;
  variant->barrier[1] = cpu1;
  variant->expectation[0] = judge(number, 0, cpu0);
  variant->expectation[1] = judge(number, 1, cpu1);
}

size_t variants_of_scenario(int number, struct variant variants[VARIANT_MAX]) {
  static const char *const weak_descriptions[2][2] = {
      {"CPU 0 has cmm_smp_rmb(), too weak or the wrong kind for its side; CPU 1 the weakest it "
       "may use",
       "CPU 0 has cmm_smp_wmb(), too weak or the wrong kind for its side; CPU 1 the weakest it "
       "may use"},
      {"CPU 1 has cmm_smp_rmb(), too weak or the wrong kind for its side; CPU 0 the weakest it "
       "may use",
       "CPU 1 has cmm_smp_wmb(), too weak or the wrong kind for its side; CPU 0 the weakest it "
       "may use"},
  };
  const enum litmus_barrier weakest0 = variant_weakest_barrier(number, 0);
  const enum litmus_barrier weakest1 = variant_weakest_barrier(number, 1);
  size_t count = 0;

  add(variants, &count, number, "none", "no barrier on either side", LITMUS_BARRIER_NONE,
      LITMUS_BARRIER_NONE);
  add(variants, &count, number, "weakest", "the weakest barriers the row allows", weakest0,
      weakest1);
  add(variants, &count, number, "full", "cmm_smp_mb() on both sides", LITMUS_BARRIER_MB,
      LITMUS_BARRIER_MB);
  add(variants, &count, number, "missing0", "CPU 0 has no barrier; CPU 1 the weakest it may use",
      LITMUS_BARRIER_NONE, weakest1);
  add(variants, &count, number, "missing1", "CPU 1 has no barrier; CPU 0 the weakest it may use",
      weakest0, LITMUS_BARRIER_NONE);

  /* Each half-barrier that is not enough for a side, that side alone wrong. */
  for (int cpu = 0; cpu < 2; cpu++) {
    for (int kind = 0; kind < 2; kind++) {
      enum litmus_barrier barrier = kind == 0 ? LITMUS_BARRIER_RMB : LITMUS_BARRIER_WMB;
      if (judge(number, cpu, barrier) == LITMUS_SIDE_CORRECT)
        continue;
      char name[16];
      snprintf(name, sizeof name, "%s%d", kind == 0 ? "rmb" : "wmb", cpu);
      add(variants, &count, number, name, weak_descriptions[cpu][kind],
          cpu == 0 ? barrier : weakest0, cpu == 1 ? barrier : weakest1);
    }
  }
  return count;
}
