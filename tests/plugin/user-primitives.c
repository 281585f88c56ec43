// A primitive file makes a library's own barriers known: Concurrency Kit's,
// from share/primitives/ck.def, with fix-its spelled in CK's names.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// Without the file CK's fences are plain inline functions: no barrier, no pair.
// RUN: %barrierpair %s 2>&1 | count 0
// Loading the same file twice changes nothing.
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify
#include "ck_pr.h"

int message, ready;

void writer(void) {
  ck_pr_store_int(&message, 1);
  ck_pr_fence_store(); // expected-note {{'writer' orders the store to 'message' before the store to 'ready' with 'ck_pr_fence_store()'}}
  ck_pr_store_int(&ready, 1);
}

int reader(void) {
  if (!ck_pr_load_int(&ready))
    return -1;
  return ck_pr_load_int(&message); // expected-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing), which needs ck_pr_fence_load() here}} \
                                      expected-note {{scenario 3}}
  // CHECK: fix-it:"{{.*}}user-primitives.c":{[[@LINE-2]]:3-[[@LINE-2]]:3}:"ck_pr_fence_load();\n  "
}

// The same pattern with both fences: quiet.
int data, flag;

void publish(void) {
  ck_pr_store_int(&data, 42);
  ck_pr_fence_store();
  ck_pr_store_int(&flag, 1);
}

int consume(void) {
  if (!ck_pr_load_int(&flag))
    return -1;
  ck_pr_fence_load();
  return ck_pr_load_int(&data);
}

// Dekker through a compare-and-swap: a CK read-modify-write orders nothing,
// so the side without a fence is the broken one.
int left, right;

int enter_left(void) {
  ck_pr_store_int(&left, 1);
  ck_pr_fence_store_load(); // expected-note {{'enter_left' orders the store to 'left' before the load of 'right' with 'ck_pr_fence_store_load()'}}
  return ck_pr_load_int(&right);
}

int enter_right(void) {
  if (!ck_pr_cas_int(&right, 0, 1))
    return -1;
  return ck_pr_load_int(&left); // expected-warning {{no barrier orders the store to 'right' before the load of 'left' in 'enter_right'; with 'enter_left' this is scenario 10 (Dekker), which needs ck_pr_fence_memory() here}} \
                                   expected-note {{scenario 10}}
  // CHECK: fix-it:"{{.*}}user-primitives.c":{[[@LINE-2]]:3-[[@LINE-2]]:3}:"ck_pr_fence_memory();\n  "
}
