// Scenario 11: the article's row, checked by hand.
//   CPU 0: CAO(x) = 2; cmm_smp_mb(); r2 = CAO(y);
//   CPU 1: CAO(y) = 1; cmm_smp_mb(); CAO(x) = 1;
//   BUG_ON(x == 2 && r2 == 0)
// Seen from cpu1 as CPU 0 this is scenario 14, whose BUG_ON (in that row's names) is y == 2 && r4 == 0.
// Its forbidden outcome is a final value of an object both CPUs store,
// which only a later reader sees: its pairings are reported only with
// beta, and without it even the broken forms are quiet.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_mb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_mb -Xclang -verify=missing0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -Xclang -verify=missing1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_rmb -DB1=cmm_smp_mb -Xclang -verify=weak0r
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=cmm_smp_mb -Xclang -verify=weak0w
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_rmb -Xclang -verify=weak1r
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_wmb -Xclang -verify=weak1w
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_mb -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX1
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_mb -Xclang -verify=ok
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define NONE() do { } while (0)

int x, y;

void cpu0(void) {
  CMM_STORE_SHARED(x, 2);
  B0(); // weak0r-warning {{'cmm_smp_rmb()' is too weak to order the store to 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 11, which needs cmm_smp_mb() here}} \
           weak0r-note {{scenario 11 forbids x == 2 && r2 == 0}} \
           weak0w-warning {{'cmm_smp_wmb()' is too weak to order the store to 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 11, which needs cmm_smp_mb() here}} \
           weak0w-note {{scenario 11 forbids x == 2 && r2 == 0}} \
           missing1-note {{'cpu0' orders the store to 'x' before the load of 'y' with 'cmm_smp_mb()'}} \
           weak1r-note {{'cpu0' orders the store to 'x' before the load of 'y' with 'cmm_smp_mb()'}} \
           weak1w-note {{'cpu0' orders the store to 'x' before the load of 'y' with 'cmm_smp_mb()'}}
  // FIX0: fix-it:"{{.*}}scenario-11.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_mb();\n  "
  int r2 = CMM_LOAD_SHARED(y); // missing0-warning {{no barrier orders the store to 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 11, which needs cmm_smp_mb() here}} \
                                  missing0-note {{scenario 11 forbids x == 2 && r2 == 0}}
  (void)r2;
}

void cpu1(void) {
  CMM_STORE_SHARED(y, 1);
  B1(); // missing0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_mb()'}} \
           weak0r-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_mb()'}} \
           weak0w-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_mb()'}} \
           weak1r-warning {{'cmm_smp_rmb()' is too weak to order the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 14, which needs cmm_smp_mb() here}} \
           weak1r-note {{scenario 14 forbids y == 2 && r4 == 0}} \
           weak1w-warning {{'cmm_smp_wmb()' is too weak to order the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 14, which needs cmm_smp_mb() here}} \
           weak1w-note {{scenario 14 forbids y == 2 && r4 == 0}}
  // FIX1: fix-it:"{{.*}}scenario-11.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_mb();\n  "
  CMM_STORE_SHARED(x, 1); // missing1-warning {{no barrier orders the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 14, which needs cmm_smp_mb() here}} \
                             missing1-note {{scenario 14 forbids y == 2 && r4 == 0}}
}
