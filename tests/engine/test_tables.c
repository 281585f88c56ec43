/* The scenario and primitive tables are consistent with the article's rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "barrierpair/barrierpair.h"

#include <string.h>

static bool bit(int number, int weight) {
  return (number & weight) != 0;
}

static void test_every_row_is_numbered_by_its_accesses(void **state) {
  (void)state;
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    const bp_scenario *row = bp_scenario_get(n);
    assert_non_null(row);
    assert_int_equal(row->number, n);
    /* CPU 0's code starts with a store to x exactly when bit 8 is set. */
    assert_int_equal(strncmp(row->code[0], "CAO(x) =", 8) == 0, bit(n, 8));
    assert_int_equal(strncmp(row->code[1], "CAO(y) =", 8) == 0, bit(n, 2));
  }
  assert_null(bp_scenario_get(16));
  assert_null(bp_scenario_get(-1));
}

static void test_mirror_swaps_cpus_and_keeps_needs(void **state) {
  (void)state;
  static const int pairs[][2] = {{1, 4}, {2, 8}, {3, 12}, {6, 9}, {7, 13}, {11, 14}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    assert_int_equal(bp_scenario_mirror(pairs[i][0]), pairs[i][1]);
    assert_int_equal(bp_scenario_mirror(pairs[i][1]), pairs[i][0]);
  }
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    int m = bp_scenario_mirror(n);
    assert_int_equal(bp_scenario_mirror(m), n);
    assert_int_equal(bp_scenario_need(n, 0), bp_scenario_need(m, 1));
    assert_int_equal(bp_scenario_need(n, 1), bp_scenario_need(m, 0));
  }
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    if (n == 0 || n == 5 || n == 10 || n == 15)
      assert_int_equal(bp_scenario_mirror(n), n);
  }
}

/* A read barrier only ever stands between two loads, a write barrier between
 * two stores. */
static void test_weak_barriers_match_the_side(void **state) {
  (void)state;
  for (int n = 0; n < BP_SCENARIO_COUNT; n++) {
    const bp_scenario *row = bp_scenario_get(n);
    bool first[2] = {bit(n, 8), bit(n, 2)}, second[2] = {bit(n, 4), bit(n, 1)};
    for (int cpu = 0; cpu < 2; cpu++) {
      if (row->barrier[cpu] == 'r')
        assert_true(!first[cpu] && !second[cpu]);
      if (row->barrier[cpu] == 'w')
        assert_true(first[cpu] && second[cpu]);
      assert_true(strchr("rwm", row->barrier[cpu]) != NULL);
    }
  }
}

static void test_article_names(void **state) {
  (void)state;
  assert_string_equal(bp_scenario_get(3)->name, "message passing");
  assert_string_equal(bp_scenario_get(10)->name, "Dekker");
  assert_string_equal(bp_scenario_get(5)->name, "inverse Dekker");
  assert_string_equal(bp_scenario_get(0)->name, "IRIW");
}

static void test_primitives_are_found_by_name(void **state) {
  (void)state;
  int rmb = bp_primitive_find("cmm_smp_rmb", 11);
  assert_true(rmb >= 0);
  assert_int_equal(bp_primitive_get(rmb)->op, BP_OP_FENCE);
  assert_int_equal(bp_order_strength(bp_primitive_get(rmb)->order), BP_STRENGTH_LOADS);
  int release = bp_primitive_find("smp_store_release", 17);
  assert_int_equal(bp_primitive_get(release)->order, BP_ORDER_RELEASE);
  assert_int_equal(bp_primitive_find("cmm_smp_rmbx", 12), BP_NO_PRIMITIVE);
  assert_int_equal(bp_primitive_find("cmm_smp_rm", 10), BP_NO_PRIMITIVE);
  /* every name once */
  for (size_t i = 0; i < bp_primitive_count(); i++) {
    const char *name = bp_primitive_get((int)i)->name;
    assert_int_equal(bp_primitive_find(name, strlen(name)), (int)i);
  }
}

static void test_strength_and_spelling(void **state) {
  (void)state;
  assert_int_equal(bp_order_strength(BP_ORDER_COMPILER), BP_STRENGTH_NONE);
  assert_int_equal(bp_order_strength(BP_ORDER_SEQ_CST), BP_STRENGTH_FULL);
  assert_int_equal(bp_order_strength(BP_ORDER_ACQUIRE), BP_STRENGTH_LOADS);
  assert_int_equal(bp_order_from_c11(3), BP_ORDER_RELEASE);
  assert_string_equal(bp_barrier_spelling(BP_FAMILY_URCU, BP_STRENGTH_LOADS), "cmm_smp_rmb()");
  assert_string_equal(bp_barrier_spelling(BP_FAMILY_KERNEL, BP_STRENGTH_FULL), "smp_mb()");
  assert_int_equal(bp_rule_find("weak-barrier"), BP_RULE_WEAK_BARRIER);
  assert_int_equal(bp_rule_find("no-such-rule"), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_row_is_numbered_by_its_accesses),
      cmocka_unit_test(test_mirror_swaps_cpus_and_keeps_needs),
      cmocka_unit_test(test_weak_barriers_match_the_side),
      cmocka_unit_test(test_article_names),
      cmocka_unit_test(test_primitives_are_found_by_name),
      cmocka_unit_test(test_strength_and_spelling),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
