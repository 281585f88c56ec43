// Scenario 3, message passing (the article: "Message (`y`) and flag (`x`)"):
// the article's row, checked by hand.
//   CPU 0: r1 = CAO(x); cmm_smp_{r,}mb(); r2 = CAO(y);
//   CPU 1: CAO(y) = 1; cmm_smp_{w,}mb(); CAO(x) = 1;
//   BUG_ON(r1 == 1 && r2 == 0)
// Seen from cpu1 as CPU 0 this is scenario 12, whose BUG_ON (in that row's names) is r3 == 1 && r4 == 0.
//
// RUN: %barrierpair %s -DB0=cmm_smp_rmb -DB1=cmm_smp_wmb -Xclang -verify=ok
// RUN: %barrierpair %s -DB0=cmm_smp_mb -DB1=cmm_smp_mb -Xclang -verify=ok
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_wmb -Xclang -verify=missing0
// RUN: %barrierpair %s -DB0=cmm_smp_rmb -DB1=NONE -Xclang -verify=missing1
// RUN: %barrierpair %s -DB0=cmm_smp_wmb -DB1=cmm_smp_wmb -Xclang -verify=weak0
// RUN: %barrierpair %s -DB0=cmm_smp_rmb -DB1=cmm_smp_rmb -Xclang -verify=weak1
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_wmb -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX0
// RUN: %barrierpair %s -DB0=cmm_smp_rmb -DB1=NONE -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX1
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define NONE() do { } while (0)

int x, y;

void cpu0(void) {
  int r1 = CMM_LOAD_SHARED(x);
  B0(); // weak0-warning {{'cmm_smp_wmb()' is too weak to order the load of 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
           weak0-note {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0: 'cpu0' could see 'x' set by 'cpu1' and still read the old 'y'}} \
           missing1-note {{'cpu0' orders the load of 'x' before the load of 'y' with 'cmm_smp_rmb()'}} \
           weak1-note {{'cpu0' orders the load of 'x' before the load of 'y' with 'cmm_smp_rmb()'}}
  // FIX0: fix-it:"{{.*}}scenario-03.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_rmb();\n  "
  int r2 = r1 ? CMM_LOAD_SHARED(y) : 0; // missing0-warning {{no barrier orders the load of 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                  missing0-note {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0: 'cpu0' could see 'x' set by 'cpu1' and still read the old 'y'}}
  (void)r1, (void)r2;
}

void cpu1(void) {
  CMM_STORE_SHARED(y, 1);
  B1(); // missing0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak1-warning {{'cmm_smp_rmb()' is too weak to order the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 12 (message passing), which needs cmm_smp_wmb() here}} \
           weak1-note {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0: 'cpu0' could see 'x' set by 'cpu1' and still read the old 'y'}}
  // FIX1: fix-it:"{{.*}}scenario-03.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_wmb();\n  "
  CMM_STORE_SHARED(x, 1); // missing1-warning {{no barrier orders the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 12 (message passing), which needs cmm_smp_wmb() here}} \
                             missing1-note {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0: 'cpu0' could see 'x' set by 'cpu1' and still read the old 'y'}}
}
