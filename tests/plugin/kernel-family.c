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
  smp_store_release(&current_config, fresh); // expected-note {{'publish' orders the store to 'config_version' before the store to 'current_config' with 'smp_store_release()'}}
}

int read_version(void) {
  struct config *config = READ_ONCE(current_config);
  // CHECK: fix-it:"{{.*}}kernel-family.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"smp_rmb();\n  "
  return config ? READ_ONCE(config_version) : 0; // expected-warning {{no barrier orders the load of 'current_config' before the load of 'config_version' in 'read_version'; with 'publish' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                                    expected-note {{scenario 3 (message passing) forbids}}
}

// The fix-it's family comes from the partner's barrier: here a function
// that writes only rcu_assign_pointer(), a row the table files under
// liburcu. Its unit is kernel code (READ_ONCE(), WRITE_ONCE(), smp_*() and
// no liburcu fence), so the fix is still smp_rmb(). The reader finds the
// slot it reads by its index, not through the pointer it loaded.
struct slot {
  int *owner;
};
struct slot slots[4], *current_slot;

void set_slot(int *owner) {
  rcu_assign_pointer(slots[0].owner, owner);
  rcu_assign_pointer(current_slot, &slots[0]); // expected-note {{'set_slot' orders the store to 'slots[].owner' before the store to 'current_slot' with 'rcu_assign_pointer()'}}
}

int *slot_owner_seen(void) {
  struct slot *slot = READ_ONCE(current_slot);
  // CHECK: fix-it:"{{.*}}kernel-family.c":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"smp_rmb();\n  "
  return slot ? READ_ONCE(slots[0].owner) : 0; // expected-warning {{no barrier orders the load of 'current_slot' before the load of 'slots[].owner' in 'slot_owner_seen'; with 'set_slot' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                                  expected-note {{scenario 3 (message passing) forbids}}
}
