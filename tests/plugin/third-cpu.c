// Scenario 2 (r1 = x; mb; r2 = y | y = 1; mb; r4 = x) needs a third CPU that
// stores x: without one, the two functions order nothing between them.
//
// RUN: %barrierpair %s -Xclang -verify=alone
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DWITH_CPU2 -Xclang -verify=with
// alone-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;

void cpu0(int *r1, int *r2) {
  *r1 = CMM_LOAD_SHARED(x);
  cmm_smp_rmb(); // with-warning {{'cmm_smp_rmb()' is too weak to order the load of 'x' before the load of 'y' in 'cpu0'; with 'cpu1' this is scenario 2, which needs cmm_smp_mb() here}} \
                    with-note {{scenario 2 forbids r1 == 1 && r2 == 0 && r4 == 0}}
  *r2 = CMM_LOAD_SHARED(y);
}

void cpu1(int *r4) {
  CMM_STORE_SHARED(y, 1);
  cmm_smp_mb(); // with-note {{'cpu1' orders the store to 'y' before the load of 'x' with 'cmm_smp_mb()'}}
  *r4 = CMM_LOAD_SHARED(x);
}

#ifdef WITH_CPU2
void cpu2(void) { CMM_STORE_SHARED(x, 1); }
#endif
