// The article's Quick Quiz 8: one barrier between two loads of the same
// variable acts alone (cache coherence); there is no pair to check.
//
// RUN: %barrierpair %s -Xclang -verify
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int x;

void cpu0(int *r1, int *r2) {
  *r1 = CMM_LOAD_SHARED(x);
  cmm_smp_mb();
  *r2 = CMM_LOAD_SHARED(x);
}

void cpu1(void) { CMM_STORE_SHARED(x, 1); }
