// Plugin arguments: disabling a rule, and a clear error for anything else.
//
// RUN: %barrierpair %s 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: %barrierpair %s -fplugin-arg-barrierpair-disable=missing-barrier 2>&1 | FileCheck %s --check-prefix=WEAK-ONLY
// RUN: %barrierpair %s -fplugin-arg-barrierpair-disable=missing-barrier -fplugin-arg-barrierpair-disable=weak-barrier 2>&1 | count 0
// RUN: not %barrierpair %s -fplugin-arg-barrierpair-verbose 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %barrierpair %s -fplugin-arg-barrierpair-disable=no-such-rule 2>&1 | FileCheck %s --check-prefix=BAD-RULE
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;

int dekker0(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_wmb();
  return CMM_LOAD_SHARED(y);
}

int dekker1(void) {
  CMM_STORE_SHARED(y, 1);
  return CMM_LOAD_SHARED(x);
}

// BOTH-DAG: [barrierpair-weak-barrier]
// BOTH-DAG: [barrierpair-missing-barrier]
// WEAK-ONLY: [barrierpair-weak-barrier]
// WEAK-ONLY-NOT: [barrierpair-missing-barrier]
// UNKNOWN: error: barrierpair: unknown plugin argument 'verbose'; valid arguments: sites-dir=<dir>, disable=<rule> (rules: missing-barrier, weak-barrier{{.*}})
// UNKNOWN-NOT: warning:
// BAD-RULE: error: barrierpair: unknown plugin argument 'disable=no-such-rule'; valid arguments: sites-dir=<dir>, disable=<rule> (rules: missing-barrier, weak-barrier{{.*}})
