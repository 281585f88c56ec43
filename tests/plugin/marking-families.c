// missing-access-once's fix-it marks the access the way the pair's barriers
// are spelled: READ_ONCE/WRITE_ONCE next to smp_*() barriers, relaxed GCC
// atomics next to C11 fences (a plain object has no _Atomic type).
//
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
#include <stdatomic.h>
#include "kernel.h"
#include <urcu/arch.h>
#include <urcu/system.h>

int kernel_message, kernel_ready;

void kernel_writer(void) {
  WRITE_ONCE(kernel_message, 1);
  smp_wmb();
  // CHECK: warning: the store to 'kernel_ready' in 'kernel_writer' is not marked, but it races with the load of 'kernel_ready' in 'kernel_reader'; mark it: WRITE_ONCE(kernel_ready, 1)
  // CHECK: fix-it:"{{.*}}marking-families.c":{[[@LINE+1]]:3-[[@LINE+1]]:19}:"WRITE_ONCE(kernel_ready, 1)"
  kernel_ready = 1;
}

int kernel_reader(void) {
  // CHECK: warning: the load of 'kernel_ready' in 'kernel_reader' is not marked{{.*}}; mark it: READ_ONCE(kernel_ready)
  // CHECK: fix-it:"{{.*}}marking-families.c":{[[@LINE+1]]:15-[[@LINE+1]]:27}:"READ_ONCE(kernel_ready)"
  int ready = kernel_ready;
  smp_rmb();
  return ready ? READ_ONCE(kernel_message) : 0;
}

int c11_message, c11_ready;

void c11_writer(void) {
  __atomic_store_n(&c11_message, 1, __ATOMIC_RELAXED);
  atomic_thread_fence(memory_order_release);
  // CHECK: warning: the store to 'c11_ready' in 'c11_writer' is not marked{{.*}}; mark it: __atomic_store_n(&c11_ready, 1, __ATOMIC_RELAXED)
  // CHECK: fix-it:"{{.*}}marking-families.c":{[[@LINE+1]]:3-[[@LINE+1]]:16}:"__atomic_store_n(&c11_ready, 1, __ATOMIC_RELAXED)"
  c11_ready = 1;
}

int c11_reader(void) {
  while (!__atomic_load_n(&c11_ready, __ATOMIC_RELAXED))
    ;
  atomic_thread_fence(memory_order_acquire);
  return __atomic_load_n(&c11_message, __ATOMIC_RELAXED);
}
// A compound assignment has no `lvalue = value` to rewrite: the message names
// the marking, with no fix-it.
int counter, counter_flag;

void bump(void) {
  // CHECK: warning: the store to 'counter' in 'bump' is not marked{{.*}}; mark it with CMM_STORE_SHARED()
  // CHECK-NOT: fix-it:{{.*}}CMM_STORE_SHARED
  counter += 1;
  cmm_smp_mb();
  CMM_STORE_SHARED(counter_flag, 1);
}

int read_counter(void) {
  int flag = CMM_LOAD_SHARED(counter_flag);
  cmm_smp_rmb();
  return flag + CMM_LOAD_SHARED(counter);
}
