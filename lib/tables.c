/* The scenario and primitive tables, read from the .def files. */
#include "barrierpair/barrierpair.h"

#include <string.h>

static const bp_scenario scenarios[BP_SCENARIO_COUNT] = {
#define BP_SCENARIO(number, name, cpu0, cpu1, code0, code1, code2, code3, bug_on, story)           \
  {number, name, {cpu0, cpu1}, {code0, code1, code2, code3}, bug_on, story},
#include "barrierpair/scenarios.def"
#undef BP_SCENARIO
};

static const bp_primitive primitives[] = {
#define BP_PRIMITIVE(name, family, op, order)                                                      \
  {#name, BP_FAMILY_##family, BP_OP_##op, BP_ORDER_##order},
#include "barrierpair/primitives.def"
#undef BP_PRIMITIVE
};

static const struct {
  const char *name;
  const char *spelling[3]; /* mb, rmb, wmb */
} families[BP_FAMILY_COUNT] = {
#define BP_FAMILY(id, name, mb, rmb, wmb) {name, {mb, rmb, wmb}},
#include "barrierpair/primitives.def"
#undef BP_FAMILY
};

static const char *const rule_names[BP_RULE_COUNT] = {
    [BP_RULE_MISSING_BARRIER] = "missing-barrier",
    [BP_RULE_WEAK_BARRIER] = "weak-barrier",
    [BP_RULE_TRANSITIVE_WEAK_BARRIER] = "transitive-weak-barrier",
    [BP_RULE_UNPAIRED_BARRIER] = "unpaired-barrier",
    [BP_RULE_STALE_ANNOTATION] = "stale-annotation",
};

const bp_scenario *bp_scenario_get(int number) {
  if (number < 0 || number >= BP_SCENARIO_COUNT)
    return NULL;
  return &scenarios[number];
}

int bp_scenario_number(bool x0_store, bool y0_store, bool y1_store, bool x1_store) {
  return 8 * x0_store + 4 * y0_store + 2 * y1_store + x1_store;
}

int bp_scenario_mirror(int number) {
  bool x0 = number & 8, y0 = number & 4, y1 = number & 2, x1 = number & 1;
  /* CPU 1 becomes CPU 0 and its first object (y) becomes x. */
  return bp_scenario_number(y1, x1, x0, y0);
}

static unsigned strength_of_letter(char letter) {
  switch (letter) {
  case 'r':
    return BP_STRENGTH_LOADS;
  case 'w':
    return BP_STRENGTH_STORES;
  default:
    return BP_STRENGTH_FULL;
  }
}

unsigned bp_scenario_need(int number, int cpu) {
  const bp_scenario *scenario = bp_scenario_get(number);
  if (!scenario || cpu < 0 || cpu > 1)
    return BP_STRENGTH_FULL;
  return strength_of_letter(scenario->barrier[cpu]);
}

int bp_primitive_find(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof primitives / sizeof primitives[0]; i++) {
    if (strlen(primitives[i].name) == len && memcmp(primitives[i].name, name, len) == 0)
      return (int)i;
  }
  return BP_NO_PRIMITIVE;
}

const bp_primitive *bp_primitive_get(int index) {
  if (index < 0 || (size_t)index >= bp_primitive_count())
    return NULL;
  return &primitives[index];
}

size_t bp_primitive_count(void) {
  return sizeof primitives / sizeof primitives[0];
}

const char *bp_family_name(bp_family family) {
  return family < BP_FAMILY_COUNT ? families[family].name : "";
}

bp_order bp_order_from_c11(int memory_order) {
  switch (memory_order) {
  case 0:
    return BP_ORDER_RELAXED;
  case 1:
    return BP_ORDER_CONSUME;
  case 2:
    return BP_ORDER_ACQUIRE;
  case 3:
    return BP_ORDER_RELEASE;
  case 4:
    return BP_ORDER_ACQ_REL;
  default:
    return BP_ORDER_SEQ_CST;
  }
}

unsigned bp_order_strength(bp_order order) {
  switch (order) {
  case BP_ORDER_RMB:
  case BP_ORDER_CONSUME:
  case BP_ORDER_ACQUIRE:
    return BP_STRENGTH_LOADS;
  case BP_ORDER_WMB:
  case BP_ORDER_RELEASE:
    return BP_STRENGTH_STORES;
  case BP_ORDER_ACQ_REL:
    return BP_STRENGTH_LOADS | BP_STRENGTH_STORES;
  case BP_ORDER_MB:
  case BP_ORDER_SEQ_CST:
    return BP_STRENGTH_FULL;
  default:
    return BP_STRENGTH_NONE;
  }
}

const char *bp_barrier_spelling(bp_family family, unsigned strength) {
  if (family >= BP_FAMILY_COUNT)
    family = BP_FAMILY_URCU;
  if (strength == BP_STRENGTH_LOADS)
    return families[family].spelling[1];
  if (strength == BP_STRENGTH_STORES)
    return families[family].spelling[2];
  return families[family].spelling[0];
}

const char *bp_rule_name(bp_rule rule) {
  return rule < BP_RULE_COUNT ? rule_names[rule] : "";
}

int bp_rule_find(const char *name) {
  for (int i = 0; i < BP_RULE_COUNT; i++) {
    if (strcmp(rule_names[i], name) == 0)
      return i;
  }
  return -1;
}
