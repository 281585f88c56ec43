// Barriers wrapped in the project's own macros, several levels deep, are
// still recognised by the name the primitive table knows; fix-its replace the
// barrier where it is written.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
#include <urcu/arch.h>
#include <urcu/system.h>

#define PUBLISH_FENCE() cmm_smp_wmb()
#define LEVEL2() PUBLISH_FENCE()
#define LEVEL3() do { LEVEL2(); } while (0)
#define SET(var, value) CMM_STORE_SHARED(var, value)
#define GET(var) CMM_LOAD_SHARED(var)

int x, y, a, b;

void publish(void) {
  SET(y, 1);
  LEVEL3(); // expected-note {{'publish' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}}
  SET(x, 1);
}

int consume(void) {
  int r1 = GET(x);
  cmm_smp_wmb(); // expected-warning {{'cmm_smp_wmb()' is too weak to order the load of 'x' before the load of 'y' in 'consume'; with 'publish' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                    expected-note {{scenario 3}}
  // CHECK: fix-it:"{{.*}}nested-macros.c":{[[@LINE-2]]:3-[[@LINE-2]]:16}:"cmm_smp_rmb()"
  return r1 + GET(y);
}

int dekker0(void) {
  CMM_STORE_SHARED(a, 1);
  cmm_smp_wmb(); // expected-warning {{'cmm_smp_wmb()' is too weak to order the store to 'a' before the load of 'b' in 'dekker0'; with 'dekker1' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                    expected-note {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0: 'dekker0' could read the old 'b' and 'dekker1' the old 'a'}} \
                    expected-note {{'dekker0' orders the store to 'a' before the load of 'b' with 'cmm_smp_wmb()'}}
  // CHECK: fix-it:"{{.*}}nested-macros.c":{[[@LINE-3]]:3-[[@LINE-3]]:16}:"cmm_smp_mb()"
  return CMM_LOAD_SHARED(b);
}

int dekker1(void) {
  CMM_STORE_SHARED(b, 1);
  cmm_smp_rmb(); // expected-warning {{'cmm_smp_rmb()' is too weak to order the store to 'b' before the load of 'a' in 'dekker1'; with 'dekker0' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                    expected-note {{scenario 10 (Dekker)}} \
                    expected-note {{'dekker1' orders the store to 'b' before the load of 'a' with 'cmm_smp_rmb()'}}
  // CHECK: fix-it:"{{.*}}nested-macros.c":{[[@LINE-3]]:3-[[@LINE-3]]:16}:"cmm_smp_mb()"
  return CMM_LOAD_SHARED(a);
}
