/* Memory follows the program, not the number of pairings: a reader written
 * once in a header and lowered into many callers, against many writers, is
 * one finding, and the analysis must not hold every pairing on the way
 * (the kernel gives tens of millions). The address space is capped so that
 * holding the pairings fails the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "barrierpair/barrierpair.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

enum { WRITERS = 1200, READERS = 1200, CAP_MIB = 160 };

/* The process's address space now, from /proc (Linux). */
static size_t address_space_bytes(void) {
  FILE *status = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (status) {
    if (fscanf(status, "%lu", &pages) != 1)
      pages = 0;
    fclose(status);
  }
  return pages * 4096;
}

static void test_pairings_at_one_place_are_one_finding(void **state) {
  (void)state;
  bp_engine *engine = bp_engine_create();
  uint32_t data = bp_intern_object(engine, "data", "data");
  uint32_t flag = bp_intern_object(engine, "flag", "flag");
  uint32_t file = bp_intern_file(engine, "ring.h");
  int mb = bp_primitive_find("cmm_smp_mb", 10);
  char name[32];
  for (int i = 0; i < WRITERS; i++) {
    snprintf(name, sizeof name, "writer%d", i);
    bp_location at = {file, 100 + (uint32_t)i * 4, 1};
    bp_function_begin(engine, name, at);
    uint32_t block = bp_add_block(engine);
    at.line++;
    bp_add_access(engine, block, data, BP_ACCESS_STORE, true, BP_NO_PRIMITIVE, at);
    at.line++;
    bp_add_barrier(engine, block, BP_STRENGTH_FULL, mb, false, at);
    at.line++;
    bp_add_access(engine, block, flag, BP_ACCESS_STORE, true, BP_NO_PRIMITIVE, at);
    bp_function_end(engine);
  }
  /* one inline reader in a header, lowered into each caller */
  for (int i = 0; i < READERS; i++) {
    snprintf(name, sizeof name, "caller%d", i);
    bp_function_begin(engine, name, (bp_location){file, 10, 1});
    uint32_t block = bp_add_block(engine);
    bp_add_access(engine, block, flag, BP_ACCESS_LOAD, true, BP_NO_PRIMITIVE,
                  (bp_location){file, 11, 3});
    uint32_t read = bp_add_access(engine, block, data, BP_ACCESS_LOAD, true, BP_NO_PRIMITIVE,
                                  (bp_location){file, 12, 3});
    bp_add_guard(engine, read, flag);
    bp_function_end(engine);
  }
  struct rlimit cap = {address_space_bytes() + ((size_t)CAP_MIB << 20), RLIM_INFINITY};
  struct rlimit before;
  assert_int_equal(getrlimit(RLIMIT_AS, &before), 0);
  cap.rlim_max = before.rlim_max;
  assert_int_equal(setrlimit(RLIMIT_AS, &cap), 0);

  bp_finding *findings;
  size_t count = bp_analyze(engine, NULL, &findings);
  assert_int_equal(setrlimit(RLIMIT_AS, &before), 0);

  size_t missing = 0;
  for (size_t i = 0; i < count; i++) {
    if (findings[i].rule != BP_RULE_MISSING_BARRIER)
      continue;
    missing++;
    assert_int_equal(findings[i].other_pairings, (uint32_t)WRITERS * READERS - 1);
    assert_int_equal(findings[i].side.second, findings[i].at);
  }
  assert_int_equal(missing, 1);
  free(findings);
  bp_engine_destroy(engine);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pairings_at_one_place_are_one_finding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
