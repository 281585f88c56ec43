// What a global pointer points to: `*q` with q = rcu_dereference(gp) (or
// `*gp`) is the object whose address the program stores into gp, when
// every such store writes the same one (`gp = &config`); the analysis then
// pairs the load through the pointer with the stores to that object.
// LKMM's MP+once+addr shape: the reader's address dependency orders its two
// loads, the writer needs a barrier between the object and the pointer.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -D_LGPL_SOURCE -Xclang -verify
// RUN: %barrierpair %s -DMISSING -Xclang -verify=missing
// RUN: %barrierpair %s -DMISSING -D_LGPL_SOURCE -Xclang -verify=missing
// RUN: %barrierpair %s -DMISSING -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX
// RUN: %barrierpair %s -DPLAIN_LOAD -Xclang -verify=plain
// RUN: %barrierpair %s -DMISSING -DTWO_TARGETS -Xclang -verify
// RUN: %barrierpair %s -DMISSING -DFRESH_VALUE -Xclang -verify
// expected-no-diagnostics
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>
#include <urcu/system.h>

int config;
int spare;
int *current;

void publish(void) {
  config = 42;
#ifndef MISSING
  cmm_smp_wmb(); // plain-note {{'publish' orders the store to 'config' before the store to 'current' with 'cmm_smp_wmb()'}}
#endif
  CMM_STORE_SHARED(current, &config); // missing-warning {{no barrier orders the store to 'config' before the store to 'current' in 'publish'; with 'consume' this is scenario 12 (message passing), which needs cmm_smp_wmb() here}} \
                                         missing-note {{scenario 12 (message passing) forbids}}
  // FIX: fix-it:"{{.*}}pointees.c":{[[@LINE-2]]:3-[[@LINE-2]]:3}:"cmm_smp_wmb();\n  "
}

// Two objects' addresses: which one a reader sees is not known, and the
// analysis does not guess.
#ifdef TWO_TARGETS
void publish_spare(void) {
  spare = 7;
  CMM_STORE_SHARED(current, &spare);
}
#endif

// An address the analysis cannot name (a parameter's value) leaves the
// pointee unknown too.
#ifdef FRESH_VALUE
void publish_given(int *given) {
  CMM_STORE_SHARED(current, given);
}
#endif

void retire(void) {
  CMM_STORE_SHARED(current, NULL); // NULL points nowhere: still one object
}

int consume(void) {
#ifdef PLAIN_LOAD
  // CMM_LOAD_SHARED() does not order the load through the pointer (Alpha).
  int *seen = CMM_LOAD_SHARED(current);
#else
  int *seen = rcu_dereference(current); // missing-note {{'consume' orders the load of 'current' before the load of 'config' with 'rcu_dereference()'}}
#endif
  if (!seen)
    return -1;
  return CMM_LOAD_SHARED(*seen); // plain-warning {{no barrier orders the load of 'current' before the load of 'config' in 'consume'; with 'publish' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                    plain-note {{scenario 3 (message passing) forbids}}
}
