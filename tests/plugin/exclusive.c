// Functions that a library's contract runs under mutual exclusion with each
// other (BP_EXCLUSIVE in a primitive file, as primitives.def declares
// liburcu's wait-free queue's dequeue, splice, first and next) pair with
// nothing, as two critical sections of one lock do: directly, and where
// both sides' accesses are in the code of helpers of the group that other
// functions inline. Without the contract, the same code is reported.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/exclusive.def -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=open
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

struct queue {
  int head, tail;
};

void queue_pop(struct queue *q) {
  CMM_STORE_SHARED(q->head, 1);
  cmm_smp_mb(); // open-note {{'queue_pop' orders the store to 'queue.head' before the load of 'queue.tail' with 'cmm_smp_mb()'}}
  (void)CMM_LOAD_SHARED(q->tail);
}

void queue_splice(struct queue *q) {
  CMM_STORE_SHARED(q->tail, 1);
  (void)CMM_LOAD_SHARED(q->head); // open-warning {{no barrier orders the store to 'queue.tail' before the load of 'queue.head' in 'queue_splice'; with 'queue_pop' this is scenario 10 (Dekker)}} \
                                     open-note {{scenario 10}}
}

struct list {
  int first, last;
};

static inline void queue_pop_inline(struct list *l) {
  CMM_STORE_SHARED(l->first, 1);
  cmm_smp_mb(); // open-note {{'drain_worker' orders the store to 'list.first' before the load of 'list.last' with 'cmm_smp_mb()' (in its call of 'queue_pop_inline')}}
  (void)CMM_LOAD_SHARED(l->last);
}

static inline void queue_splice_inline(struct list *l) {
  CMM_STORE_SHARED(l->last, 1);
  (void)CMM_LOAD_SHARED(l->first); // open-warning {{no barrier orders the store to 'list.last' before the load of 'list.first' in 'move_worker' (in its call of 'queue_splice_inline'); with 'drain_worker' this is scenario 10 (Dekker)}} \
                                      open-note {{scenario 10}}
}

void drain_worker(struct list *l) {
  queue_pop_inline(l);
}

void move_worker(struct list *l) {
  queue_splice_inline(l);
}
