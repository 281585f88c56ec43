// Acquire loads and release stores: an acquire load counts as a load plus the
// rmb after it, a release store as the wmb before it plus the store (the
// article's own equivalence), in the kernel, C11 and GCC spellings.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// CHECK: fix-it:"{{.*}}acquire-release.c":{52:3-52:3}:"smp_mb();\n  "
#include "kernel.h"
#include <stdatomic.h>

// Scenario 3 with the kernel's smp_store_release()/smp_load_acquire(): quiet.
int kx, ky;
void kernel_writer(void) {
  WRITE_ONCE(ky, 1);
  smp_store_release(&kx, 1);
}
int kernel_reader(void) {
  int r1 = smp_load_acquire(&kx);
  return r1 ? READ_ONCE(ky) : 0;
}

// Scenario 3 with C11 atomics: quiet.
_Atomic int cx, cy;
void c11_writer(void) {
  atomic_store_explicit(&cy, 1, memory_order_relaxed);
  atomic_store_explicit(&cx, 1, memory_order_release);
}
int c11_reader(void) {
  int r1 = atomic_load_explicit(&cx, memory_order_acquire);
  return r1 ? atomic_load_explicit(&cy, memory_order_relaxed) : 0;
}

// Scenario 3 with GCC builtins, but the reader's load is relaxed.
int gx, gy;
void gcc_writer(void) {
  __atomic_store_n(&gy, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&gx, 1, __ATOMIC_RELEASE); // expected-note {{'gcc_writer' orders the store to 'gy' before the store to 'gx' with '__atomic_store_n()'}}
}
int gcc_reader(void) {
  int r1 = __atomic_load_n(&gx, __ATOMIC_RELAXED);
  return r1 ? __atomic_load_n(&gy, __ATOMIC_RELAXED) : 0; // expected-warning {{no barrier orders the load of 'gx' before the load of 'gy' in 'gcc_reader'; with 'gcc_writer' this is scenario 3 (message passing), which needs __atomic_thread_fence(__ATOMIC_ACQUIRE) here}} \
                                                         expected-note {{scenario 3}}
}

// Dekker (scenario 10) with release/acquire: release orders nothing before a
// later load, so the store and the load stay unordered. The code meant an
// order there: the acquire is a barrier too weak, and the fix-it adds a
// full barrier before it.
int dx, dy;
void dekker_release_acquire(void) {
  smp_store_release(&dx, 1);
  int r = smp_load_acquire(&dy); // expected-warning {{'smp_load_acquire()' is too weak to order the store to 'dx' before the load of 'dy' in 'dekker_release_acquire'; with 'dekker_full' this is scenario 10 (Dekker), which needs smp_mb() here}} \
                                    expected-note {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0}}
  (void)r;
}
void dekker_full(void) {
  WRITE_ONCE(dy, 1);
  smp_mb(); // expected-note {{'dekker_full' orders the store to 'dy' before the load of 'dx' with 'smp_mb()'}}
  int r = READ_ONCE(dx);
  (void)r;
}

// Sequentially consistent C11 accesses are fully ordered: Dekker is quiet.
atomic_int sx, sy;
int sc0(void) {
  atomic_store(&sx, 1);
  return atomic_load(&sy);
}
int sc1(void) {
  atomic_store(&sy, 1);
  return atomic_load(&sx);
}
