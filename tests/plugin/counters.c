// Counters: an object that every access of the program adds to, subtracts
// from or reads with relaxed atomics is a statistic (mimalloc's
// abandoned_count, thread_count). No order is derived from it: it is
// neither a flag nor a payload, and pairs with nothing. One access with an
// order makes it an object like any other.
//
// RUN: %barrierpair %s -Xclang -verify
#include <stdatomic.h>

static _Atomic(unsigned long) served;
static _Atomic(int) ready;

void serve(void) {
  atomic_fetch_add_explicit(&served, 1, memory_order_relaxed);
  atomic_store_explicit(&ready, 1, memory_order_release);
}

unsigned long report(void) {
  int seen = atomic_load_explicit(&ready, memory_order_relaxed);
  return seen ? atomic_load_explicit(&served, memory_order_relaxed) : 0;
}

void unserve(void) { atomic_fetch_sub_explicit(&served, 1, memory_order_relaxed); }

// The same shape where one reader loads the count with acquire: the count
// orders something, so its order with `done` is a claim.
static _Atomic(unsigned long) finished;
static _Atomic(int) done;

void finish(void) {
  atomic_fetch_add_explicit(&finished, 1, memory_order_relaxed);
  // expected-note@+1 {{'finish' orders the store to 'finished' before the store to 'done' with 'atomic_store_explicit()'}}
  atomic_store_explicit(&done, 1, memory_order_release);
}

unsigned long progress(void) {
  int seen = atomic_load_explicit(&done, memory_order_relaxed);
  // expected-warning@+2 {{no barrier orders the load of 'done' before the load of 'finished' in 'progress'; with 'finish' this is scenario 3 (message passing)}}
  // expected-note@+1 {{scenario 3}}
  return seen ? atomic_load_explicit(&finished, memory_order_relaxed) : 0;
}

unsigned long settled(void) { return atomic_load_explicit(&finished, memory_order_acquire); }

// liburcu's uatomic_add() and uatomic_read() are relaxed too (the exchange
// is a full barrier).
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

static unsigned long lookups;
static int table_ready;

void lookup(void) {
  uatomic_add(&lookups, 1);
  uatomic_xchg(&table_ready, 1);
}

unsigned long lookup_report(void) {
  int seen = CMM_LOAD_SHARED(table_ready);
  return seen ? uatomic_read(&lookups) : 0;
}

// A relaxed count with a fence written beside it is a protocol, not a
// statistic: a Dekker of two counts, one side missing its fence.
static _Atomic(int) entering0, entering1;

int enter0(void) {
  atomic_fetch_add_explicit(&entering0, 1, memory_order_relaxed);
  // expected-note@+1 {{'enter0' orders the store to 'entering0' before the load of 'entering1' with 'atomic_thread_fence()'}}
  atomic_thread_fence(memory_order_seq_cst);
  return atomic_load_explicit(&entering1, memory_order_relaxed);
}

int enter1(void) {
  atomic_fetch_add_explicit(&entering1, 1, memory_order_relaxed);
  // expected-warning@+2 {{no barrier orders the store to 'entering1' before the load of 'entering0' in 'enter1'; with 'enter0' this is scenario 10 (Dekker)}}
  // expected-note@+1 {{scenario 10}}
  return atomic_load_explicit(&entering0, memory_order_relaxed);
}

// Per-record statistics (CK's epoch records): reset to zero by plain stores
// when the record is registered, stepped and read relaxed. A reset to a
// number is one of a count's accesses. The counts pair with nothing, also
// where they share an acquire fence's window with a list's exchange.
struct record {
  unsigned n_pending, n_dispatch;
};
static _Atomic(int) list_head;

void record_reset(struct record *record) {
  record->n_pending = 0;
  record->n_dispatch = 0;
}

unsigned record_dispatch(struct record *record) {
  int taken = atomic_exchange_explicit(&list_head, 0, memory_order_relaxed);
  atomic_thread_fence(memory_order_acquire);
  __atomic_fetch_add(&record->n_dispatch, (unsigned)taken, __ATOMIC_RELAXED);
  return __atomic_load_n(&record->n_pending, __ATOMIC_RELAXED);
}

void record_push(struct record *record) {
  __atomic_fetch_add(&record->n_pending, 1, __ATOMIC_RELAXED);
  atomic_store_explicit(&list_head, 1, memory_order_relaxed);
}

// A peak: stored relaxed, only where a count exceeds it, from the count. A
// statistic of statistics pairs with nothing either.
struct stats {
  unsigned pending, peak;
};
static _Atomic(int) queue_head;

void stats_reset(struct stats *stats) {
  stats->pending = 0;
  stats->peak = 0;
}

void stats_push(struct stats *stats) {
  unsigned pending = __atomic_add_fetch(&stats->pending, 1, __ATOMIC_RELAXED);
  unsigned peak = __atomic_load_n(&stats->peak, __ATOMIC_RELAXED);
  if (pending > peak)
    __atomic_store_n(&stats->peak, pending, __ATOMIC_RELAXED);
  atomic_store_explicit(&queue_head, 1, memory_order_relaxed);
}

unsigned stats_take(struct stats *stats) {
  (void)atomic_exchange_explicit(&queue_head, 0, memory_order_relaxed);
  atomic_thread_fence(memory_order_acquire);
  return __atomic_load_n(&stats->peak, __ATOMIC_RELAXED);
}

// Two counts a fence orders only because a Dekker's flags stand around it:
// the counts stay statistics. Only a fence right between two counts makes
// them a protocol (enter0 and enter1 above).
static _Atomic(int) hits, misses, turn0, turn1;

int dekker_counting0(void) {
  atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed);
  atomic_store_explicit(&turn0, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  int other = atomic_load_explicit(&turn1, memory_order_relaxed);
  return other + atomic_load_explicit(&misses, memory_order_relaxed);
}

int dekker_counting1(void) {
  atomic_store_explicit(&turn1, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  return atomic_load_explicit(&turn0, memory_order_relaxed);
}

int count_miss(void) {
  atomic_fetch_add_explicit(&misses, 1, memory_order_relaxed);
  return atomic_load_explicit(&hits, memory_order_relaxed);
}

// A flag set to a number and read relaxed is no count: nothing steps it.
static int posted, post_value;

void post(int value) {
  post_value = value;
  // expected-note@+1 {{'post' orders the store to 'post_value' before the store to 'posted' with 'atomic_thread_fence()'}}
  atomic_thread_fence(memory_order_release);
  posted = 1;
}

int peek(void) {
  if (!__atomic_load_n(&posted, __ATOMIC_RELAXED))
    return -1;
  // expected-warning@+2 {{no barrier orders the load of 'posted' before the load of 'post_value' in 'peek'; with 'post' this is scenario 3 (message passing)}}
  // expected-note@+1 {{scenario 3}}
  return post_value;
}
