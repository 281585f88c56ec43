// Calls to functions of the translation unit count where they are made: a
// barrier inside a wrapper orders its caller's accesses, a parameter bound
// to &flag names flag, and a lock taken in a helper is held in the caller.
//
// RUN: %barrierpair %s -Xclang -verify -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// RUN: %barrierpair %s 2>&1 | FileCheck %s --check-prefix=HEADER
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include "flag_helpers.h"

// A wrapper in this file carries the writer's barrier.
int data, ready;

static inline void publish(int *flag) {
  cmm_smp_wmb();
  CMM_STORE_SHARED(*flag, 1);
}

void writer(void) {
  CMM_STORE_SHARED(data, 42);
  publish(&ready);
}

int good_reader(void) {
  if (!CMM_LOAD_SHARED(ready))
    return 0;
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(data);
}

int bad_reader(void) {
  if (!CMM_LOAD_SHARED(ready))
    return 0;
  // CHECK: interprocedural.c:[[#@LINE+2]]:10: warning: no barrier orders the load of 'ready' before the load of 'data' in 'bad_reader'; with 'writer' this is scenario 3
  // CHECK: fix-it:"{{.*}}interprocedural.c":{[[#@LINE+1]]:3-[[#@LINE+1]]:3}:"cmm_smp_rmb();\n  "
  return CMM_LOAD_SHARED(data); // expected-warning {{no barrier orders the load of 'ready' before the load of 'data' in 'bad_reader'; with 'writer' this is scenario 3 (message passing)}}
}
// The partner note points at the barrier inside the wrapper.
// CHECK: interprocedural.c:17:3: note: 'writer' orders the store to 'data' before the store to 'ready' with 'cmm_smp_wmb()' (in its call of 'publish')

// A header's helper (a header of the program, not of the system): its
// events are reported where its code is, as a helper of this file's are
// (the partner note points at flag_raise()'s barrier); fix-its go in front
// of the call in this file.
int message, signal_flag;

void header_writer(void) {
  CMM_STORE_SHARED(message, 1);
  flag_raise(&signal_flag);
}

int header_reader(void) {
  int seen = flag_seen(&signal_flag);
  // CHECK: interprocedural.c:[[#@LINE+2]]:17: warning: no barrier orders the load of 'signal_flag' before the load of 'message' in 'header_reader'
  // CHECK: fix-it:"{{.*}}interprocedural.c":{[[#@LINE+1]]:3-[[#@LINE+1]]:3}:"cmm_smp_rmb();\n  "
  return seen ? CMM_LOAD_SHARED(message) : 0; // expected-warning {{no barrier orders the load of 'signal_flag' before the load of 'message' in 'header_reader'}}
  // CHECK: flag_helpers.h:8:3: note: 'header_writer' orders the store to 'message' before the store to 'signal_flag' with 'cmm_smp_wmb()' (in its call of 'flag_raise')
}

// One defect in a header's helper, inlined into two readers: one finding, at
// the helper's code, the other reader counted as a further pairing.
int header_first_reader(void) { return flag_then_message(&signal_flag, &message); }
int header_second_reader(void) { return flag_then_message(&signal_flag, &message); }
// HEADER: flag_helpers.h:19:10: warning: no barrier orders the load of 'signal_flag' before the load of 'message' in 'header_first_reader' (in its call of 'flag_then_message'); with 'header_writer' this is scenario 3 (message passing), which needs cmm_smp_rmb() here (and 1 other pairing)
// expected-warning@flag_helpers.h:19 {{no barrier orders the load of 'signal_flag' before the load of 'message' in 'header_first_reader' (in its call of 'flag_then_message'); with 'header_writer' this is scenario 3 (message passing), which needs cmm_smp_rmb() here (and 1 other pairing)}}

// The same wrapper without its barrier: the caller is the broken side.
// The warning points at the store inside the helper; the fix-it goes in
// front of the call, so other callers are not changed.
static inline void publish_plain(int *flag) {
  CMM_STORE_SHARED(*flag, 1); // expected-warning {{no barrier orders the store to 'plain_data' before the store to 'plain_ready' in 'plain_writer' (in its call of 'publish_plain'); with 'plain_reader'}}
}

int plain_data, plain_ready;

void plain_writer(void) {
  CMM_STORE_SHARED(plain_data, 1);
  // CHECK: fix-it:"{{.*}}interprocedural.c":{[[#@LINE+1]]:3-[[#@LINE+1]]:3}:"cmm_smp_wmb();\n  "
  publish_plain(&plain_ready);
}

int plain_reader(void) {
  int seen = CMM_LOAD_SHARED(plain_ready);
  cmm_smp_rmb();
  return seen + CMM_LOAD_SHARED(plain_data);
}

// Critical sections of one lock, taken through a helper, never overlap:
// nothing pairs between them, marked or not.
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
int table_size, table_items;

static void lock_table(pthread_mutex_t *lock) { pthread_mutex_lock(lock); }

void table_grow(void) {
  lock_table(&table_lock);
  table_items = 2;
  cmm_smp_wmb();
  table_size = 2;
  pthread_mutex_unlock(&table_lock);
}

int table_read(void) {
  pthread_mutex_lock(&table_lock);
  int size = table_size;
  int items = size ? table_items : 0;
  pthread_mutex_unlock(&table_lock);
  return size + items;
}

// A retry loop: the reader's last load of one attempt and the first of the
// next are not an order the pairing needs.
unsigned long sequence, low, high;

void seq_write(unsigned long value) {
  CMM_STORE_SHARED(sequence, CMM_LOAD_SHARED(sequence) + 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(low, value);
  CMM_STORE_SHARED(high, value);
  cmm_smp_wmb();
  CMM_STORE_SHARED(sequence, CMM_LOAD_SHARED(sequence) + 1);
}

static int seq_try_read(unsigned long *a, unsigned long *b) {
  unsigned long seq = CMM_LOAD_SHARED(sequence);
  if (seq & 1)
    return 0;
  cmm_smp_rmb();
  *a = CMM_LOAD_SHARED(low);
  *b = CMM_LOAD_SHARED(high);
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(sequence) == seq;
}

unsigned long seq_read(void) {
  unsigned long a, b;
  while (!seq_try_read(&a, &b))
    caa_cpu_relax();
  return a + b;
}
