// A cycle of four functions, two of which reach its objects through the
// running thread's own instance of one thread-local variable (liburcu's
// deferrer queues into its own `defer_queue` and, unregistering, frees its
// slots): the cycle ties both to one instance, so both run on one thread,
// one after the other. That is no cycle of four CPUs, and the article's
// rule on rmb and wmb is about CPUs: quiet. Where the leaving function is
// handed any record (-DOTHERS), another thread may run it, and the rmb and
// wmb on the cycle are too weak by the article's rule; the leaving
// function reaches the record's fields through a pointer, a guess at the
// instance, so only --beta reports the cycle.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DOTHERS -fplugin-arg-barrierpair-beta -Xclang -verify=others
// RUN: %barrierpair %s -DOTHERS -Xclang -verify
// expected-no-diagnostics
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>

struct record {
  unsigned long head;
  void **slots;
  struct record *next;
};

static DEFINE_URCU_TLS(struct record, mine);
struct record *registry;
int leaving;

void put(void *p) {
  unsigned long head = URCU_TLS(mine).head;
  CMM_STORE_SHARED(URCU_TLS(mine).slots[head & 7], p);
  cmm_smp_wmb(); // others-warning {{'cmm_smp_wmb()' is not transitive, but 'put' orders the store to 'record.slots[]' before the store to 'record.head' with it on a cycle through 'collect', 'leave' and 'collector' ('record.slots[]' -> 'record.head' -> 'record.slots' -> 'leaving' -> 'record.slots[]'); this needs cmm_smp_mb() here}} \
                    others-note 2 {{'put' orders the store to 'record.slots[]' before the store to 'record.head' with 'cmm_smp_wmb()'}} \
                    others-note {{read and write barriers are not transitive}}
  CMM_STORE_SHARED(URCU_TLS(mine).head, head + 1);
}

void collect(void (*use)(void *)) {
  for (struct record *r = registry; r; r = r->next) {
    unsigned long head = CMM_LOAD_SHARED(r->head);
    cmm_smp_rmb(); // others-warning {{'cmm_smp_rmb()' is not transitive, but 'collect' orders the load of 'record.head' before the load of 'record.slots' with it on a cycle through 'leave', 'collector' and 'put'}} \
                      others-note 2 {{'collect' orders the load of 'record.head' before the load of 'record.slots' with 'cmm_smp_rmb()'}} \
                      others-note {{read and write barriers are not transitive}}
    void **slots = r->slots;
    use(slots[head & 7]);
  }
}

#ifdef OTHERS
void leave(struct record *r) {
  r->slots = NULL;
#else
void leave(void) {
  free(URCU_TLS(mine).slots);
  URCU_TLS(mine).slots = NULL;
#endif
  cmm_smp_mb(); // others-note 3 {{'leave' orders the store to 'record.slots' before the store to 'leaving' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(leaving, 1);
}

void *collector(void *arg) {
  (void)arg;
  while (!CMM_LOAD_SHARED(leaving))
    ;
  cmm_smp_rmb(); // others-warning {{'cmm_smp_rmb()' is not transitive, but 'collector' orders the load of 'leaving' before the load of 'record.slots[]' with it on a cycle through 'put', 'collect' and 'leave'}} \
                    others-note 2 {{'collector' orders the load of 'leaving' before the load of 'record.slots[]' with 'cmm_smp_rmb()'}} \
                    others-note {{read and write barriers are not transitive}}
  for (struct record *r = registry; r; r = r->next)
    free(CMM_LOAD_SHARED(r->slots[0]));
  return NULL;
}
