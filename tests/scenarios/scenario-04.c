// Scenario 4, Scenaro [sic] 1, swapping `x` and `y`: the article's row, checked by hand.
//   CPU 0: r1 = CAO(x); cmm_smp_mb(); CAO(y) = 1;
//   CPU 1: r3 = CAO(y); cmm_smp_{r,}mb(); r4 = CAO(x);
//   CPU 2: CAO(x) = 1;
//   BUG_ON(r1 == 1 && r3 == 1 && r4 == 0)
// Seen from cpu1 as CPU 0 this is scenario 1, whose BUG_ON (in that row's names) is r1 == 1 && r2 == 0 && r3 == 1.
// A third CPU stores in this row: its pairings are reported only with
// beta, and without it even the broken forms are quiet.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_rmb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_mb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_rmb -Xclang -verify=missing0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -Xclang -verify=missing1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_rmb -DB1=cmm_smp_rmb -Xclang -verify=weak0r
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=cmm_smp_rmb -Xclang -verify=weak0w
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_wmb -Xclang -verify=weak1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_rmb -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX1
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_rmb -Xclang -verify=ok
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define NONE() do { } while (0)

int x, y;

void cpu0(void) {
  int r1 = CMM_LOAD_SHARED(x);
  B0(); // weak0r-warning {{'cmm_smp_rmb()' is too weak to order the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 4, which needs cmm_smp_mb() here}} \
           weak0r-note {{scenario 4 forbids r1 == 1 && r3 == 1 && r4 == 0}} \
           weak0w-warning {{'cmm_smp_wmb()' is too weak to order the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 4, which needs cmm_smp_mb() here}} \
           weak0w-note {{scenario 4 forbids r1 == 1 && r3 == 1 && r4 == 0}} \
           missing1-note {{'cpu0' orders the load of 'x' before the store to 'y' with 'cmm_smp_mb()'}} \
           weak1-note {{'cpu0' orders the load of 'x' before the store to 'y' with 'cmm_smp_mb()'}}
  // FIX0: fix-it:"{{.*}}scenario-04.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_mb();\n  "
  CMM_STORE_SHARED(y, 1); // missing0-warning {{no barrier orders the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 4, which needs cmm_smp_mb() here}} \
                             missing0-note {{scenario 4 forbids r1 == 1 && r3 == 1 && r4 == 0}}
  (void)r1;
}

void cpu1(void) {
  int r3 = CMM_LOAD_SHARED(y);
  B1(); // missing0-note {{'cpu1' orders the load of 'y' before the load of 'x' with 'cmm_smp_rmb()'}} \
           weak0r-note {{'cpu1' orders the load of 'y' before the load of 'x' with 'cmm_smp_rmb()'}} \
           weak0w-note {{'cpu1' orders the load of 'y' before the load of 'x' with 'cmm_smp_rmb()'}} \
           weak1-warning {{'cmm_smp_wmb()' is too weak to order the load of 'y' before the load of 'x' in 'cpu1'; with 'cpu0' this is scenario 1, which needs cmm_smp_rmb() here}} \
           weak1-note {{scenario 1 forbids r1 == 1 && r2 == 0 && r3 == 1}}
  // FIX1: fix-it:"{{.*}}scenario-04.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_rmb();\n  "
  int r4 = r3 ? CMM_LOAD_SHARED(x) : 0; // missing1-warning {{no barrier orders the load of 'y' before the load of 'x' in 'cpu1'; with 'cpu0' this is scenario 1, which needs cmm_smp_rmb() here}} \
                                  missing1-note {{scenario 1 forbids r1 == 1 && r2 == 0 && r3 == 1}}
  (void)r3, (void)r4;
}

void cpu2(void) { CMM_STORE_SHARED(x, 1); }
