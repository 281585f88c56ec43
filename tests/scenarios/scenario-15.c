// Scenario 15: the article's row, checked by hand.
//   CPU 0: CAO(x) = 1; cmm_smp_{w,}mb(); CAO(y) = 2;
//   CPU 1: CAO(y) = 1; cmm_smp_{w,}mb(); CAO(x) = 2;
//   BUG_ON(x == 1 && y == 1)
// The row is its own mirror: seen from cpu1 as CPU 0 it is scenario 15 again.
// Its forbidden outcome is a final value of an object both CPUs store,
// which only a later reader sees: its pairings are reported only with
// beta, and without it even the broken forms are quiet.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=cmm_smp_wmb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_mb -DB1=cmm_smp_mb -Xclang -verify=ok
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_wmb -Xclang -verify=missing0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=NONE -Xclang -verify=missing1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_rmb -DB1=cmm_smp_wmb -Xclang -verify=weak0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=cmm_smp_rmb -Xclang -verify=weak1
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=NONE -DB1=cmm_smp_wmb -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX0
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DB0=cmm_smp_wmb -DB1=NONE -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX1
// RUN: %barrierpair %s -DB0=NONE -DB1=cmm_smp_wmb -Xclang -verify=ok
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define NONE() do { } while (0)

int x, y;

void cpu0(void) {
  CMM_STORE_SHARED(x, 1);
  B0(); // weak0-warning {{'cmm_smp_rmb()' is too weak to order the store to 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 15 (two writers), which needs cmm_smp_wmb() here}} \
           weak0-note {{scenario 15 (two writers) forbids x == 1 && y == 1}} \
           missing1-note {{'cpu0' orders the store to 'x' before the store to 'y' with 'cmm_smp_wmb()'}} \
           weak1-note {{'cpu0' orders the store to 'x' before the store to 'y' with 'cmm_smp_wmb()'}}
  // FIX0: fix-it:"{{.*}}scenario-15.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_wmb();\n  "
  CMM_STORE_SHARED(y, 2); // missing0-warning {{no barrier orders the store to 'x' before the store to 'y' in 'cpu0'; with 'cpu1' this is scenario 15 (two writers), which needs cmm_smp_wmb() here}} \
                             missing0-note {{scenario 15 (two writers) forbids x == 1 && y == 1}}
}

void cpu1(void) {
  CMM_STORE_SHARED(y, 1);
  B1(); // missing0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak0-note {{'cpu1' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'}} \
           weak1-warning {{'cmm_smp_rmb()' is too weak to order the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 15 (two writers), which needs cmm_smp_wmb() here}} \
           weak1-note {{scenario 15 (two writers) forbids x == 1 && y == 1}}
  // FIX1: fix-it:"{{.*}}scenario-15.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cmm_smp_wmb();\n  "
  CMM_STORE_SHARED(x, 2); // missing1-warning {{no barrier orders the store to 'y' before the store to 'x' in 'cpu1'; with 'cpu0' this is scenario 15 (two writers), which needs cmm_smp_wmb() here}} \
                             missing1-note {{scenario 15 (two writers) forbids x == 1 && y == 1}}
}
