// What an rmb or a wmb claims: an order of accesses of its own kind. Next to
// a read-modify-write, the barrier orders the half of its kind: taking a
// whole list with an exchange, then cmm_smp_rmb(), orders the load of the old
// head before what follows (Concurrency Kit's ck_stack_batch_pop_upmc()); the
// exchange's store is no claim, so the rmb is not too weak for it. A wmb that
// orders two stores (Concurrency Kit's hash tables: a slot's fields, then its
// key) claims nothing about the loads around it. A plain store before an rmb
// that orders no loads is still a barrier of the wrong kind.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify
#include <urcu/arch.h>
#include <urcu/system.h>

struct entry {
  struct entry *next;
};

struct entry *head;
int epoch;

void push(struct entry *entry) {
  CMM_STORE_SHARED(epoch, 1);
  cmm_smp_wmb();
  __atomic_store_n(&head, entry, __ATOMIC_RELAXED);
}

int pop_all(void) {
  struct entry *taken = __atomic_exchange_n(&head, NULL, __ATOMIC_RELAXED);
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(epoch) + (taken != NULL);
}

// Bumps a counter after publishing: the wmb orders the store of the message
// before the counter's store; the counter's load is no claim.
int message, published;

void publish(int value) {
  CMM_STORE_SHARED(message, value);
  cmm_smp_wmb();
  __atomic_fetch_add(&published, 1, __ATOMIC_RELAXED);
}

int consume(void) {
  int seen = CMM_LOAD_SHARED(published);
  cmm_smp_rmb();
  return seen ? CMM_LOAD_SHARED(message) : -1;
}

// The same shape with a plain store where the exchange was: the rmb is too
// weak to order it before the load, and the wmb for the other side's
// store.
struct entry *list;
int generation;

void prepend(struct entry *entry) {
  CMM_STORE_SHARED(generation, 1);
  // expected-warning@+3 {{'cmm_smp_wmb()' is too weak to order the store to 'generation' before the store to 'list' in 'prepend'; with 'forget_all' this is scenario 14, which needs cmm_smp_mb() here}}
  // expected-note@+2 {{scenario 14}}
  // expected-note@+1 {{'prepend' orders the store to 'generation' before the store to 'list' with 'cmm_smp_wmb()'}}
  cmm_smp_wmb();
  CMM_STORE_SHARED(list, entry);
}

int forget_all(void) {
  CMM_STORE_SHARED(list, NULL);
  // expected-warning@+3 {{'cmm_smp_rmb()' is too weak to order the store to 'list' before the load of 'generation' in 'forget_all'; with 'prepend' this is scenario 11, which needs cmm_smp_mb() here}}
  // expected-note@+2 {{scenario 11}}
  // expected-note@+1 {{'forget_all' orders the store to 'list' before the load of 'generation' with 'cmm_smp_rmb()'}}
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(generation);
}

// A wmb between two stores, with loads around it: the loads' order with
// each other and with the stores is not what the wmb is there for. The wmb is
// not too weak for them; they are judged as if it were not there, and both
// loads are marked: a barrier is missing.
int slot_value, slot_key, table_size, table_mode;

void fill_slot(int key, int value) {
  int mode = CMM_LOAD_SHARED(table_mode);
  CMM_STORE_SHARED(slot_value, value + mode);
  cmm_smp_wmb();
  CMM_STORE_SHARED(slot_key, key);
  // expected-warning@+2 {{no barrier orders the load of 'table_mode' before the load of 'table_size' in 'fill_slot'; with 'grow_table' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}}
  // expected-note@+1 {{scenario 3}}
  if (CMM_LOAD_SHARED(table_size) > 8)
    CMM_STORE_SHARED(table_mode, 1);
}

void grow_table(void) {
  CMM_STORE_SHARED(table_size, 16);
  cmm_smp_mb(); // expected-note {{'grow_table' orders the store to 'table_size' before the store to 'table_mode' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(table_mode, 2);
}

int read_slot(void) {
  int key = CMM_LOAD_SHARED(slot_key);
  cmm_smp_rmb();
  return key ? CMM_LOAD_SHARED(slot_value) : -1;
}
