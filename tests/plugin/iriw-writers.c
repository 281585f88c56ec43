// Scenario 0 (IRIW): two readers disagree on the order of two stores only
// when the stores are independent, made by two other functions. When one
// function writes both objects, each reader's pairing with that writer is
// what orders them (message passing), and the readers do not pair.
//
// RUN: %barrierpair %s -Xclang -verify=one
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DTWO_WRITERS -Xclang -verify=two -Xclang -verify-ignore-unexpected=note
// one-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;

void reader0(int *r1, int *r2) {
  *r1 = CMM_LOAD_SHARED(x);
  cmm_smp_rmb(); // two-warning {{'cmm_smp_rmb()' is too weak to order the load of 'x' before the load of 'y' in 'reader0'; with 'reader1' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r2 = CMM_LOAD_SHARED(y);
}

void reader1(int *r3, int *r4) {
  *r3 = CMM_LOAD_SHARED(y);
  cmm_smp_rmb(); // two-warning {{'cmm_smp_rmb()' is too weak to order the load of 'y' before the load of 'x' in 'reader1'; with 'reader0' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r4 = CMM_LOAD_SHARED(x);
}

#ifdef TWO_WRITERS
void writer_x(void) { CMM_STORE_SHARED(x, 1); }
void writer_y(void) { CMM_STORE_SHARED(y, 1); }
#else
void writer(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(y, 1);
}
#endif
