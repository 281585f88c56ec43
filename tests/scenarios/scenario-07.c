// Scenario 7: the article's row, checked by hand.
//   CPU 0: r1 = CAO(x); cmm_smp_mb(); CAO(y) = 1;
//   CPU 1: CAO(y) = 2; cmm_smp_{w,}mb(); CAO(x) = 1;
//   BUG_ON(y == 2 && r1 == 1)
// Seen from cpu1 as CPU 0 this is scenario 13, whose BUG_ON (in that row's names) is x == 2 && r3 == 1.
// Its forbidden outcome is a final value of an object both CPUs store,
// which only a later reader sees: its pairings are reported only with
// beta, and without it even the broken forms are quiet.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_wmb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_mb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_wmb -Xclang -verify=missing0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -Xclang -verify=missing1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_rmb -DB1=cmm_smp_wmb -Xclang -verify=weak0r
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=cmm_smp_wmb -Xclang -verify=weak0w
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_rmb -Xclang -verify=weak1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_wmb -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=NONE -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX1
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_wmb -Xclang -verify=ok
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define NONE() do { } while (0)

int x, y;

void cpu0(void) {
  int r1 = CMM_LOAD_SHARED(x);
  B0(); // weak0r-warning {{'cmm_smp_rmb()' is too weak to order the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 7, which needs cmm_smp_mb() here}} \
           weak0r-note {{scenario 7 forbids y == 2 && r1 == 1}} \
           weak0w-warning {{'cmm_smp_wmb()' is too weak to order the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 7, which needs cmm_smp_mb() here}} \
           weak0w-note {{scenario 7 forbids y == 2 && r1 == 1}} \
           missing1-note {{'cpu0' orders the load of 'x' before the store to 'y' with 'cmm_smp_mb()'}} \
           weak1-note {{'cpu0' orders the load of 'x' before the store to 'y' with 'cmm_smp_mb()'}}
  // FIX0: fix-it:"{{.*}}scenario-07.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_mb();\n  "
  CMM_STORE_SHARED(y, 1); // missing0-warning {{no barrier orders the load of 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 7, which needs cmm_smp_mb() here}} \
                             missing0-note {{scenario 7 forbids y == 2 && r1 == 1}}
  (void)r1;
}

void cpu1(void) {
  CMM_STORE_SHARED(y, 2);
  B1(); // missing0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak0r-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak0w-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak1-warning {{'cmm_smp_rmb()' is too weak to order the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 13, which needs cmm_smp_wmb() here}} \
           weak1-note {{scenario 13 forbids x == 2 && r3 == 1}}
  // FIX1: fix-it:"{{.*}}scenario-07.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_wmb();\n  "
  CMM_STORE_SHARED(x, 1); // missing1-warning {{no barrier orders the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 13, which needs cmm_smp_wmb() here}} \
                             missing1-note {{scenario 13 forbids x == 2 && r3 == 1}}
}
