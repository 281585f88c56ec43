// Fix-its are spelled in the family of the code, not of one primitive:
// rcu_assign_pointer() is a name liburcu shares with the kernel, and in
// kernel code (which uses READ_ONCE(), WRITE_ONCE() and smp_*()) the fix is
// smp_rmb(), never liburcu's cmm_smp_rmb().
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
#include "kernel.h"

#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

struct config {
  int port;
};

struct config *current_config;
int config_version;

void publish(struct config *fresh) {
  WRITE_ONCE(config_version, 2);
  rcu_assign_pointer(current_config, fresh); // expected-note {{'publish' orders the store to 'config_version' before the store to 'current_config' with 'rcu_assign_pointer()'}}
}

int read_version(void) {
  struct config *config = READ_ONCE(current_config);
  // CHECK: fix-it:"{{.*}}kernel-family.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"smp_rmb();\n  "
  return config ? READ_ONCE(config_version) : 0; // expected-warning {{no barrier orders the load of 'current_config' before the load of 'config_version' in 'read_version'; with 'publish' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                                    expected-note {{scenario 3 (message passing) forbids}}
}
