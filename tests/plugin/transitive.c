// transitive-weak-barrier: rmb and wmb are not transitive. The article's
// three-CPU example flags both weak barriers; with full barriers everywhere
// the cycle is quiet, and none of its barriers is unpaired.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-unpaired -Xclang -verify=weak
// RUN: %barrierpair %s -fplugin-arg-barrierpair-unpaired -DFULL -Xclang -verify=full
// RUN: %barrierpair %s -DWEAK_ACQUIRE_RELEASE -Xclang -verify=full
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// The Linux-kernel memory model proves the three-CPU example safe: only the
// article's rule, which --model=lkmm relaxes, flags it.
// RUN: %barrierpair %s -fplugin-arg-barrierpair-model=lkmm -Xclang -verify=full
// RUN: %barrierpair %s -fplugin-arg-barrierpair-model=lkmm -fplugin-arg-barrierpair-model=article -Xclang -verify=weak
// full-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include "kernel.h"

int x, y, z;

#if defined(FULL)
#define FIRST cmm_smp_mb
#define LAST cmm_smp_mb
#else
#define FIRST cmm_smp_wmb
#define LAST cmm_smp_rmb
#endif

#if defined(WEAK_ACQUIRE_RELEASE)
// Release/acquire chains are transitive (C11, Linux kernel model): quiet.
void cpu0(void) {
  CMM_STORE_SHARED(x, 1);
  smp_store_release(&y, 1);
}
void cpu1(int *r1) {
  *r1 = smp_load_acquire(&y);
  smp_store_release(&z, 1);
}
void cpu2(int *r3, int *r4) {
  *r3 = smp_load_acquire(&z);
  *r4 = CMM_LOAD_SHARED(x);
}
#else
void cpu0(void) {
  CMM_STORE_SHARED(x, 1);
  FIRST(); // weak-warning {{'cmm_smp_wmb()' is not transitive, but 'cpu0' orders the store to 'x' before the store to 'y' with it on a cycle through 'cpu1' and 'cpu2' ('x' -> 'y' -> 'z' -> 'x'); this needs cmm_smp_mb() here}} \
              weak-note {{read and write barriers are not transitive: a cycle through 3 functions needs a full barrier on every link (the article's rule, its three-CPU example; the Linux-kernel memory model is weaker here: --model=lkmm)}} \
              weak-note {{'cpu0' orders the store to 'x' before the store to 'y' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(y, 1);
}

void cpu1(int *r1) {
  *r1 = CMM_LOAD_SHARED(y);
  cmm_smp_mb(); // weak-note 2 {{'cpu1' orders the load of 'y' before the store to 'z' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(z, 1);
}

void cpu2(int *r3, int *r4) {
  *r3 = CMM_LOAD_SHARED(z);
  LAST(); // weak-warning {{'cmm_smp_rmb()' is not transitive, but 'cpu2' orders the load of 'z' before the load of 'x' with it on a cycle through 'cpu0' and 'cpu1' ('z' -> 'x' -> 'y' -> 'z'); this needs cmm_smp_mb() here}} \
             weak-note {{read and write barriers are not transitive}} \
             weak-note {{'cpu2' orders the load of 'z' before the load of 'x' with 'cmm_smp_rmb()'}}
  *r4 = CMM_LOAD_SHARED(x);
}
#endif
// CHECK: warning: 'cmm_smp_wmb()' is not transitive{{.*}}[barrierpair-transitive-weak-barrier]
// CHECK: fix-it:"{{.*}}transitive.c":{{.*}}:"cmm_smp_mb(){{.*}}"
