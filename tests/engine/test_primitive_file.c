/* Primitive files: what they add to the table, and an exact error, at the
 * right line and column, for each way a file can be wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "barrierpair/barrierpair.h"

#include <stdio.h>
#include <string.h>

#define MAX_ERRORS 8

static bp_primitive_error errors[MAX_ERRORS];

static size_t add(const char *text) {
  memset(errors, 0, sizeof errors);
  return bp_primitives_add_text(text, strlen(text), errors, MAX_ERRORS);
}

static int find(const char *name) {
  return bp_primitive_find(name, strlen(name));
}

/* The one error of `text`: where it is and what it says. */
static void assert_error(const char *text, uint32_t line, uint32_t column, const char *message) {
  size_t before = bp_primitive_count(), families = bp_family_count();
  assert_int_equal(add(text), 1);
  assert_int_equal(errors[0].line, line);
  assert_int_equal(errors[0].column, column);
  assert_string_equal(errors[0].message, message);
  /* all or nothing */
  assert_int_equal(bp_primitive_count(), before);
  assert_int_equal(bp_family_count(), families);
}

static int reset(void **state) {
  (void)state;
  bp_primitives_reset();
  return 0;
}

static const char ck[] = "# Concurrency Kit\n"
                         "BP_FAMILY(CK, \"Concurrency Kit\", \"ck_pr_fence_memory()\",\n"
                         "          \"ck_pr_fence_load()\", \"ck_pr_fence_store()\")\n"
                         "BP_PRIMITIVE(ck_pr_fence_load, CK, FENCE, RMB) // loads before loads\n"
                         "/* a comment\n"
                         "   over lines */ BP_PRIMITIVE(ck_pr_load_int, CK, LOAD, RELAXED)\r\n"
                         "BP_PRIMITIVE( ck_pr_cas_int ,CK,RMW , RELAXED )\n";

static void test_a_file_adds_families_and_primitives(void **state) {
  (void)state;
  size_t builtin = bp_primitive_count();
  assert_int_equal(find("ck_pr_fence_load"), BP_NO_PRIMITIVE);
  assert_int_equal(add(ck), 0);
  assert_int_equal(bp_primitive_count(), builtin + 3);
  assert_int_equal(bp_family_count(), BP_FAMILY_COUNT + 1);

  int fence = find("ck_pr_fence_load");
  assert_int_equal(fence, (int)builtin);
  const bp_primitive *row = bp_primitive_get(fence);
  assert_string_equal(row->name, "ck_pr_fence_load");
  assert_int_equal(row->op, BP_OP_FENCE);
  assert_int_equal(row->order, BP_ORDER_RMB);
  assert_string_equal(bp_family_id(row->family), "CK");
  assert_string_equal(bp_family_name(row->family), "Concurrency Kit");
  assert_int_equal(bp_family_find("CK", 2), (int)row->family);
  /* fix-its in the file's own spelling */
  assert_string_equal(bp_barrier_spelling(row->family, BP_STRENGTH_LOADS), "ck_pr_fence_load()");
  assert_string_equal(bp_barrier_spelling(row->family, BP_STRENGTH_STORES), "ck_pr_fence_store()");
  assert_string_equal(bp_barrier_spelling(row->family, BP_STRENGTH_FULL), "ck_pr_fence_memory()");

  assert_int_equal(bp_primitive_get(find("ck_pr_load_int"))->op, BP_OP_LOAD);
  assert_int_equal(bp_primitive_get(find("ck_pr_cas_int"))->op, BP_OP_RMW);
  /* the built-in rows keep their indexes */
  assert_string_equal(bp_primitive_get(find("smp_mb"))->name, "smp_mb");
  assert_true(find("smp_mb") < (int)builtin);
}

static void test_loading_again_changes_nothing(void **state) {
  (void)state;
  assert_int_equal(add(ck), 0);
  size_t count = bp_primitive_count();
  assert_int_equal(add(ck), 0);
  assert_int_equal(bp_primitive_count(), count);
  assert_int_equal(bp_family_count(), BP_FAMILY_COUNT + 1);
}

static void test_reset_forgets_the_files(void **state) {
  (void)state;
  size_t builtin = bp_primitive_count();
  assert_int_equal(add(ck), 0);
  bp_primitives_reset();
  assert_int_equal(bp_primitive_count(), builtin);
  assert_int_equal(bp_family_count(), BP_FAMILY_COUNT);
  assert_int_equal(find("ck_pr_fence_load"), BP_NO_PRIMITIVE);
  assert_int_equal(bp_family_find("CK", 2), -1);
  assert_null(bp_primitive_get((int)builtin));
}

/* primitives.def itself is a valid primitive file, which adds nothing. */
static void test_the_builtin_table_is_a_primitive_file(void **state) {
  (void)state;
  size_t count = bp_primitive_count();
  assert_int_equal(bp_primitives_load(BARRIERPAIR_SOURCE_DIR "/include/barrierpair/primitives.def",
                                      errors, MAX_ERRORS),
                   0);
  assert_int_equal(bp_primitive_count(), count);
  assert_int_equal(bp_family_count(), BP_FAMILY_COUNT);
}

static void test_the_ready_made_files_are_valid(void **state) {
  (void)state;
  static const char *const files[] = {"ck.def", "dpdk.def", "qemu.def"};
  static const char *const families[] = {"CK", "DPDK", "QEMU"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/share/primitives/%s", BARRIERPAIR_SOURCE_DIR, files[i]);
    size_t count = bp_primitive_count();
    size_t failures = bp_primitives_load(path, errors, MAX_ERRORS);
    if (failures)
      fail_msg("%s:%u:%u: %s", path, errors[0].line, errors[0].column, errors[0].message);
    assert_true(bp_primitive_count() > count + 10);
    assert_true(bp_family_find(families[i], strlen(families[i])) >= 0);
  }
  assert_int_equal(bp_primitive_get(find("rte_smp_rmb"))->order, BP_ORDER_RMB);
  assert_int_equal(bp_primitive_get(find("qatomic_load_acquire"))->order, BP_ORDER_ACQUIRE);
  assert_int_equal(bp_primitive_get(find("ck_pr_fence_store"))->order, BP_ORDER_WMB);
}

static void test_every_name_is_found_at_its_index(void **state) {
  (void)state;
  assert_int_equal(add(ck), 0);
  for (size_t i = 0; i < bp_primitive_count(); i++) {
    const char *name = bp_primitive_get((int)i)->name;
    assert_int_equal(bp_primitive_find(name, strlen(name)), (int)i);
  }
  /* names are compared whole: prefixes and longer names are not found */
  assert_int_equal(bp_primitive_find("ck_pr_fence_loadx", 16), find("ck_pr_fence_load"));
  assert_int_equal(find("ck_pr_fence_loa"), BP_NO_PRIMITIVE);
  assert_int_equal(find("ck_pr_fence_loads"), BP_NO_PRIMITIVE);
  assert_int_equal(find(""), BP_NO_PRIMITIVE);
}

static void test_a_family_marks_its_accesses(void **state) {
  (void)state;
  assert_int_equal(add(ck), 0);
  bp_family family = (bp_family)bp_family_find("CK", 2);
  /* without BP_MARKING, GCC's builtins: never another library's macros */
  assert_string_equal(bp_marking_spelling(family, BP_ACCESS_LOAD),
                      "__atomic_load_n(&%s, __ATOMIC_RELAXED)");
  assert_int_equal(add("BP_MARKING(CK, \"ck_pr_load_int(&%s)\", \"ck_pr_store_int(&%s, %s)\")"), 0);
  assert_string_equal(bp_marking_spelling(family, BP_ACCESS_LOAD), "ck_pr_load_int(&%s)");
  assert_string_equal(bp_marking_spelling(family, BP_ACCESS_STORE), "ck_pr_store_int(&%s, %s)");
  /* the same again is nothing new; the built-in families keep theirs */
  assert_int_equal(add("BP_MARKING(CK, \"ck_pr_load_int(&%s)\", \"ck_pr_store_int(&%s, %s)\")"), 0);
  assert_int_equal(add("BP_MARKING(KERNEL, \"READ_ONCE(%s)\", \"WRITE_ONCE(%s, %s)\")"), 0);
  assert_error("BP_MARKING(KERNEL, \"LOAD(%s)\", \"STORE(%s, %s)\")", 1, 12,
               "family 'KERNEL' already has other markings, as \"READ_ONCE(%s)\"");
  assert_error("BP_MARKING(MINE, \"L(%s)\", \"S(%s, %s)\")", 1, 12,
               "unknown family 'MINE'; families: URCU, KERNEL, C11, GCC, CK");
  /* formats with the wrong conversions would be undefined behaviour in printf */
  assert_error("BP_MARKING(CK, \"L(%d)\", \"S(%s, %s)\")", 1, 12,
               "family 'CK': a load's marking has one %s (the access), a store's two (the "
               "access, then the value), and no other % conversion");
  assert_error("BP_MARKING(CK, \"L(%s)\", \"S(%s)\")", 1, 12,
               "family 'CK': a load's marking has one %s (the access), a store's two (the "
               "access, then the value), and no other % conversion");
}

static void test_unknown_family_operation_and_ordering(void **state) {
  (void)state;
  assert_error("BP_PRIMITIVE(my_mb, MINE, FENCE, MB)\n", 1, 21,
               "unknown family 'MINE'; families: URCU, KERNEL, C11, GCC");
  assert_error("\n  BP_PRIMITIVE(my_mb, URCU, FENSE, MB)\n", 2, 29,
               "unknown operation 'FENSE'; operations: FENCE, LOAD, STORE, RMW, ACCESS, LOCK, "
               "UNLOCK, SPAWN, JOIN, OR, AND, XOR, BIT, READ_LOCK, LOCK_HELD, EXCUSE, TRYLOCK, "
               "TRYLOCK_ZERO, READ_TRYLOCK, READ_TRYLOCK_ZERO, MARKED_BEGIN, MARKED_END, "
               "MARKED_NEXT, SELF, INIT");
  assert_error("BP_PRIMITIVE(my_mb, URCU, FENCE, mb)", 1, 34,
               "unknown ordering 'mb'; orderings: COMPILER, RELAXED, RMB, WMB, MB, CONSUME, "
               "ACQUIRE, RELEASE, ACQ_REL, SEQ_CST, PUBLISH, FROM_ARG, MEMBARRIER, UNLOCK_LOCK");
  assert_error("BP_PRIMITIVE(my_load, URCU, LOAD, UNLOCK_LOCK)", 1, 35,
               "UNLOCK_LOCK is the ordering of a FENCE written after a lock, not of a LOAD");
}

static void test_a_name_has_one_meaning(void **state) {
  (void)state;
  assert_error("BP_PRIMITIVE(smp_mb, URCU, FENCE, MB)\n", 1, 14,
               "'smp_mb' is already a built-in primitive: BP_PRIMITIVE(smp_mb, KERNEL, FENCE, MB)");
  assert_error("BP_PRIMITIVE(my_mb, URCU, FENCE, MB)\nBP_PRIMITIVE(my_mb, URCU, FENCE, RMB)\n", 2,
               14, "'my_mb' is already a primitive: BP_PRIMITIVE(my_mb, URCU, FENCE, MB)");
  assert_error("BP_FAMILY(KERNEL, \"Linux\", \"smp_mb()\", \"smp_rmb()\", \"smp_wmb()\")", 1, 11,
               "family 'KERNEL' is already declared, as \"Linux kernel\" (smp_mb(), smp_rmb(), "
               "smp_wmb())");
  assert_error("BP_FAMILY(MINE, \"mine\", \"\", \"my_rmb()\", \"my_wmb()\")", 1, 11,
               "family 'MINE': its name and spellings cannot be empty");
  /* the same row again is no conflict */
  assert_int_equal(add("BP_PRIMITIVE(smp_mb, KERNEL, FENCE, MB)"), 0);
}

/* BP_EXCLUSIVE rows: a function is in one group; built-in rows are there
 * from the start, a file's go with a reset or with an error in the file. */
static void test_exclusive_groups(void **state) {
  (void)state;
  assert_string_equal(bp_exclusive_group("__cds_wfcq_splice_blocking"), "cds_wfcq_consumer");
  assert_null(bp_exclusive_group("cds_wfcq_enqueue"));
  assert_null(bp_exclusive_group(""));
  assert_int_equal(add("BP_EXCLUSIVE(ring_consumer, ring_pop)\n"
                       "BP_EXCLUSIVE(ring_consumer, ring_peek)\n"
                       "BP_EXCLUSIVE(ring_consumer, ring_pop)\n"),
                   0);
  assert_string_equal(bp_exclusive_group("ring_peek"), "ring_consumer");
  assert_error("BP_EXCLUSIVE(other, ring_pop)\n", 1, 21,
               "'ring_pop' is already in the exclusive group 'ring_consumer'");
  assert_int_equal(add("BP_EXCLUSIVE(later, ring_drain)\nBP_PRIMITIVE(x, NOPE, FENCE, MB)\n"), 1);
  assert_null(bp_exclusive_group("ring_drain")); /* all or nothing */
  bp_primitives_reset();
  assert_null(bp_exclusive_group("ring_pop"));
  assert_string_equal(bp_exclusive_group("___cds_wfcq_next"), "cds_wfcq_consumer");
}

/* BP_CONTRACT rows: one per function and side, an ordering that fits the
 * side; the built-in rows state liburcu's read side. */
static void test_contracts(void **state) {
  (void)state;
  assert_true(bp_has_contract("urcu_mb_read_lock", strlen("urcu_mb_read_lock")));
  assert_false(bp_has_contract("urcu_mb_read", strlen("urcu_mb_read")));
  const bp_contract *master =
      bp_contract_find("smp_mb_master", strlen("smp_mb_master"), BP_CONTRACT_BARRIER);
  assert_non_null(master);
  assert_int_equal(master->order, BP_ORDER_MEMBARRIER);
  assert_null(bp_contract_find("smp_mb_master", strlen("smp_mb_master"), BP_CONTRACT_ENTRY));
  assert_null(bp_contract_find("urcu_mb_read", strlen("urcu_mb_read"), BP_CONTRACT_EXIT));
  size_t count = bp_contract_count();
  assert_int_equal(add("BP_CONTRACT(ring_publish, ENTRY, RELEASE)\n"
                       "BP_CONTRACT(ring_publish, EXIT, MB)\n"
                       "BP_CONTRACT(ring_publish, ENTRY, RELEASE)\n"),
                   0);
  assert_int_equal(bp_contract_count(), count + 2);
  const bp_contract *row = bp_contract_get(count);
  assert_string_equal(row->function, "ring_publish");
  assert_int_equal(row->side, BP_CONTRACT_ENTRY);
  assert_int_equal(row->order, BP_ORDER_RELEASE);
  assert_int_equal(bp_contract_get(count + 1)->side, BP_CONTRACT_EXIT);
  assert_null(bp_contract_get(count + 2));
  assert_error("BP_CONTRACT(ring_publish, ENTRY, WMB)\n", 1, 13,
               "'ring_publish' already has a contract at ENTRY: RELEASE");
  assert_error("BP_CONTRACT(ring_take, EXIT, RELEASE)\n", 1, 30,
               "a contract's ordering at EXIT is MB, RMB, WMB or ACQUIRE, not 'RELEASE'");
  assert_error("BP_CONTRACT(ring_take, ENTRY, ACQ_REL)\n", 1, 31,
               "a contract's ordering at ENTRY is MB, RMB, WMB or RELEASE, not 'ACQ_REL'");
  assert_error("BP_CONTRACT(ring_take, BEFORE, MB)\n", 1, 24,
               "unknown side 'BEFORE'; sides: ENTRY, EXIT, BARRIER");
  assert_error("BP_CONTRACT(ring_take, BARRIER, RELEASE)\n", 1, 33,
               "a contract's ordering at BARRIER is MB, RMB, WMB or MEMBARRIER, not 'RELEASE'");
  assert_int_equal(add("BP_CONTRACT(ring_take, EXIT, ACQUIRE)\nBP_PRIMITIVE(x, NOPE, FENCE, MB)\n"),
                   1);
  assert_false(bp_has_contract("ring_take", strlen("ring_take"))); /* all or nothing */
  bp_primitives_reset();
  assert_int_equal(bp_contract_count(), count);
}

static void test_syntax_errors(void **state) {
  (void)state;
  assert_error("BP_PRIMITIVE(my_mb URCU, FENCE, MB)", 1, 20,
               "expected ',' after the primitive's name, found 'URCU'");
  assert_error("BP_PRIMITIVE my_mb", 1, 14, "expected '(' after BP_PRIMITIVE, found 'my_mb'");
  assert_error("BP_PRIMITIVE(\"my_mb\", URCU, FENCE, MB)", 1, 14,
               "expected the primitive's name (a name), found '\"my_mb\"'");
  assert_error("BP_FAMILY(MINE, mine, \"a\", \"b\", \"c\")", 1, 17,
               "expected the family's name (a string), found 'mine'");
  assert_error("BP_PRIMITIVE(my_mb, URCU, FENCE, MB", 1, 36,
               "expected ')' after its ordering, found the end of the file");
  assert_error("cmm_smp_mb = MB\n", 1, 1,
               "expected BP_PRIMITIVE(...), BP_FAMILY(...), BP_MARKING(...), BP_EXCLUSIVE(...) or "
               "BP_CONTRACT(...), found 'cmm_smp_mb'");
  assert_error("BP_PRIMITIVE(my_mb, URCU, FENCE, MB);", 1, 37,
               "expected BP_PRIMITIVE(...), BP_FAMILY(...), BP_MARKING(...), BP_EXCLUSIVE(...) or "
               "BP_CONTRACT(...), found ';'");
  assert_error("BP_FAMILY(MINE, \"mine)\n", 1, 17, "unterminated string");
  assert_error("BP_PRIMITIVE(my_mb, URCU, FENCE, MB)\n/* no end\n\n", 2, 1, "unterminated comment");
}

/* After an error the parser goes on at the next declaration: one error per
 * bad line, and later errors are still found. */
static void test_one_error_per_bad_line(void **state) {
  (void)state;
  size_t count = add("BP_PRIMITIVE(a, URCU, FENCE, MB\n"
                     "BP_PRIMITIVE(b, URCU, FENCE, MB)\n"
                     "garbage ( , ) more garbage\n"
                     "  BP_PRIMITIVE(c, NOPE, FENCE, MB)\n"
                     "BP_PRIMITIVE(d, URCU, FENCE, MB)\n");
  assert_int_equal(count, 3);
  assert_int_equal(errors[0].line, 2);
  assert_string_equal(errors[0].message, "expected ')' after its ordering, found 'BP_PRIMITIVE'");
  assert_int_equal(errors[1].line, 3);
  assert_int_equal(errors[2].line, 4);
  assert_int_equal(errors[2].column, 19);
  assert_int_equal(find("b"), BP_NO_PRIMITIVE); /* nothing of a file with errors */
  assert_int_equal(find("d"), BP_NO_PRIMITIVE);
}

static void test_errors_beyond_the_room_are_counted(void **state) {
  (void)state;
  char text[2048] = "";
  for (int i = 0; i < 12; i++)
    strcat(text, "BP_PRIMITIVE(x, NOPE, FENCE, MB)\n");
  assert_int_equal(add(text), 12);
  assert_int_equal(errors[MAX_ERRORS - 1].line, MAX_ERRORS);
}

static void test_a_missing_file(void **state) {
  (void)state;
  assert_int_equal(bp_primitives_load("/no/such/file.def", errors, MAX_ERRORS), 1);
  assert_int_equal(errors[0].line, 0);
  assert_string_equal(errors[0].message,
                      "cannot read primitive file '/no/such/file.def': No such file or directory");
  assert_int_equal(bp_primitives_load("/", errors, MAX_ERRORS), 1);
  assert_string_equal(errors[0].message, "cannot read primitive file '/': Is a directory");
}

static void test_an_empty_file_is_valid(void **state) {
  (void)state;
  assert_int_equal(add(""), 0);
  assert_int_equal(add("# nothing\n// here\n/* at all */\n"), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_a_file_adds_families_and_primitives, reset),
      cmocka_unit_test_teardown(test_a_family_marks_its_accesses, reset),
      cmocka_unit_test_teardown(test_loading_again_changes_nothing, reset),
      cmocka_unit_test_teardown(test_reset_forgets_the_files, reset),
      cmocka_unit_test_teardown(test_the_builtin_table_is_a_primitive_file, reset),
      cmocka_unit_test_teardown(test_the_ready_made_files_are_valid, reset),
      cmocka_unit_test_teardown(test_every_name_is_found_at_its_index, reset),
      cmocka_unit_test_teardown(test_unknown_family_operation_and_ordering, reset),
      cmocka_unit_test_teardown(test_a_name_has_one_meaning, reset),
      cmocka_unit_test_teardown(test_exclusive_groups, reset),
      cmocka_unit_test_teardown(test_contracts, reset),
      cmocka_unit_test_teardown(test_syntax_errors, reset),
      cmocka_unit_test_teardown(test_one_error_per_bad_line, reset),
      cmocka_unit_test_teardown(test_errors_beyond_the_room_are_counted, reset),
      cmocka_unit_test_teardown(test_a_missing_file, reset),
      cmocka_unit_test_teardown(test_an_empty_file_is_valid, reset),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
