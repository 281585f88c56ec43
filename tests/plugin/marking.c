// missing-access-once in real shapes: which plain accesses race and which do
// not. The flag of a pair always races; a payload read only under a check of
// the flag (spin loop, early return, `if`, a pointer loaded from the flag)
// and written before the writer's barrier does not; a function's reads of an
// object only it stores do not. Strict marking flags the payloads too.
//
// RUN: %barrierpair %s -Xclang -verify=expected -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -fplugin-arg-barrierpair-strict-marking -Xclang -verify=expected,strict -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// (-verify checks the warnings and the scenario notes on their lines;
// FileCheck, at the end, the notes that point elsewhere and the fix-its.)
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/pointer.h>

// Message passing, the payload plain on both sides, read after a spin loop.
int spin_message, spin_ready;

void spin_writer(void) {
  spin_message = 42; // strict-warning {{the store to 'spin_message' in 'spin_writer' is not marked, but it races with the load of 'spin_message' in 'spin_reader'; mark it: CMM_STORE_SHARED(spin_message, 42)}} \
                        strict-note {{scenario 12}}
  cmm_smp_wmb();
  CMM_STORE_SHARED(spin_ready, 1);
}

int spin_reader(void) {
  while (!CMM_LOAD_SHARED(spin_ready))
    caa_cpu_relax();
  cmm_smp_rmb();
  return spin_message; // strict-warning {{the load of 'spin_message' in 'spin_reader' is not marked, but it races with the store to 'spin_message' in 'spin_writer'; mark it: CMM_LOAD_SHARED(spin_message)}} \
                          strict-note {{scenario 3}}
}

// The same under an early return, and under an `if`.
int early_message, early_ready;

void early_writer(int value) {
  early_message = value; // strict-warning {{the store to 'early_message' in 'early_writer' is not marked}} strict-note {{scenario 12}}
  cmm_smp_wmb();
  CMM_STORE_SHARED(early_ready, 1);
}

int early_reader(void) {
  if (!CMM_LOAD_SHARED(early_ready))
    return -1;
  cmm_smp_rmb();
  return early_message; // strict-warning {{the load of 'early_message' in 'early_reader' is not marked}} strict-note {{scenario 3}}
}

int if_message, if_ready;

void if_writer(void) {
  if_message = 7; // strict-warning {{the store to 'if_message' in 'if_writer' is not marked}} strict-note {{scenario 12}}
  cmm_smp_wmb();
  CMM_STORE_SHARED(if_ready, 1);
}

int if_reader(void) {
  int seen = CMM_LOAD_SHARED(if_ready);
  int message = 0;
  cmm_smp_rmb();
  if (seen)
    message = if_message; // strict-warning {{the load of 'if_message' in 'if_reader' is not marked}} strict-note {{scenario 3}}
  return message;
}

// The payload read whatever the flag says races, and so does its store; the
// flag's plain accesses race always.
int blind_message, blind_ready;

void blind_writer(void) {
  blind_message = 1; // expected-warning {{the store to 'blind_message' in 'blind_writer' is not marked, but it races with the load of 'blind_message' in 'blind_reader'; mark it: CMM_STORE_SHARED(blind_message, 1)}} \
                        expected-note {{scenario 12}}
  cmm_smp_wmb();
  blind_ready = 1; // expected-warning {{the store to 'blind_ready' in 'blind_writer' is not marked, but it races with the load of 'blind_ready' in 'blind_reader'; mark it: CMM_STORE_SHARED(blind_ready, 1)}} \
                      expected-note {{scenario 12}}
}

int blind_reader(void) {
  int ready = blind_ready; // expected-warning {{the load of 'blind_ready' in 'blind_reader' is not marked, but it races with the store to 'blind_ready' in 'blind_writer'; mark it: CMM_LOAD_SHARED(blind_ready)}} \
                              expected-note {{scenario 3}}
  cmm_smp_rmb();
  return ready + blind_message; // expected-warning {{the load of 'blind_message' in 'blind_reader' is not marked, but it races with the store to 'blind_message' in 'blind_writer'; mark it: CMM_LOAD_SHARED(blind_message)}} \
                                   expected-note {{scenario 3}}
}

// RCU publication of a plainly initialised structure: the reader reaches the
// fields only through the pointer it loaded (an address dependency). The
// pointer goes to rcu_set_pointer_sym() through a local of the macro: that
// publishes it, so its fields are the message's payload, which only strict
// marking flags (the stores into memory not yet published never).
struct config {
  int timeout;
  int retries;
};
struct config *current_config;

void publish_config(int timeout) {
  struct config *config = malloc(sizeof *config);
  config->timeout = timeout;
  config->retries = 3;
  rcu_assign_pointer(current_config, config);
}

int read_timeout(void) {
  struct config *config = rcu_dereference(current_config);
  return config ? config->timeout + config->retries : 0; // strict-warning {{the load of 'config.timeout' in 'read_timeout' is not marked, but it races with the store to 'config.timeout' in 'publish_config'}} \
                                                           strict-warning {{the load of 'config.retries' in 'read_timeout' is not marked}}
}

// A counter only its owner stores: its store races with the observer's load
// (the owner's own read of it races with nothing).
int owned_count, owned_flag;

void owner(void) {
  owned_count = owned_count + 1; // expected-warning {{the store to 'owned_count' in 'owner' is not marked, but it races with the load of 'owned_count' in 'observer'; mark it: CMM_STORE_SHARED(owned_count, owned_count + 1)}} \
                                    expected-note {{scenario 10}}
  cmm_smp_mb();
  if (CMM_LOAD_SHARED(owned_flag))
    CMM_STORE_SHARED(owned_flag, 0);
}

int observer(void) {
  CMM_STORE_SHARED(owned_flag, 1);
  cmm_smp_mb();
  return CMM_LOAD_SHARED(owned_count);
}

// The blind reader's payload load: the racing store, the pairing, the scenario.
// CHECK: marking.c:84:18: warning: the load of 'blind_message' in 'blind_reader'
// CHECK: fix-it:"{{.*}}marking.c":{84:18-84:31}:"CMM_LOAD_SHARED(blind_message)"
// CHECK-NEXT: marking.c:73:3: note: 'blind_writer' stores 'blind_message' here
// CHECK: marking.c:75:3: note: 'blind_writer' orders the store to 'blind_message' before the store to 'blind_ready' with 'cmm_smp_wmb()'
// CHECK: marking.c:84:18: note: scenario 3 (message passing) forbids
// A store's fix-it rewrites the whole assignment.
// CHECK: fix-it:"{{.*}}marking.c":{117:3-117:32}:"CMM_STORE_SHARED(owned_count, owned_count + 1)"

// A suppression with its reason silences the one access (without it, the
// plain store of the flag is reported).
int quiet_message, quiet_ready;

void quiet_writer(void) {
  CMM_STORE_SHARED(quiet_message, 1);
  cmm_smp_wmb();
  /* barrierpair: ignore missing-access-once: an aligned int, and the reader polls it */
  quiet_ready = 1;
}

int quiet_reader(void) {
  if (!CMM_LOAD_SHARED(quiet_ready))
    return 0;
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(quiet_message);
}
