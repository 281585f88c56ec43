// Fix-its speak the code's own dialect: a kernel-style reader gets smp_rmb().
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
#include "kernel.h"

int message, ready;

void writer(void) {
  WRITE_ONCE(message, 1);
  smp_wmb(); // expected-note {{'writer' orders the store to 'message' before the store to 'ready' with 'smp_wmb()'}}
  WRITE_ONCE(ready, 1);
}

int reader(void) {
  if (!READ_ONCE(ready))
    return -1;
  return READ_ONCE(message); // expected-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                expected-note {{scenario 3}}
  // CHECK: fix-it:"{{.*}}kernel-fixits.c":{[[@LINE-2]]:3-[[@LINE-2]]:3}:"smp_rmb();\n  "
}
