// A local structure handed by address to inline helpers is still the
// caller's own inside them, as long as the address goes nowhere else: a
// worker splices a shared queue onto a queue on its own stack and walks it
// (liburcu's workqueue and call_rcu threads with their `cbs_tmp_tail`).
// The tail the worker's append exchanges is its local one; nobody else's
// reader of a queue tail reads it, so the reader's cmm_smp_rmb() is not
// too weak for a pairing with it.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify -DESCAPES
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct node {
  struct node *next;
};
struct tail {
  struct node *p;
};

struct node shared_head;
struct tail shared_tail = {&shared_head};
#ifdef ESCAPES
struct tail *published_tail;
#else
// expected-no-diagnostics
#endif

static inline void append(struct tail *tail, struct node *first, struct node *last) {
  struct node *old = uatomic_xchg(&tail->p, last); // #append-xchg
  CMM_STORE_SHARED(old->next, first);
}

// Any queue's reader: the next node, or NULL at the tail.
struct node *queue_next(struct tail *tail, struct node *node) {
  struct node *next = CMM_LOAD_SHARED(node->next);
  if (next == NULL) {
#ifdef ESCAPES
    cmm_smp_rmb(); // expected-warning {{'cmm_smp_rmb()' is too weak to order the load of 'node.next' before the load of 'tail.p' in 'queue_next'; with 'worker' this is scenario 2}} \
                      expected-note {{scenario 2 forbids}}
#else
    cmm_smp_rmb();
#endif
    if (CMM_LOAD_SHARED(tail->p) == node)
      return NULL;
  }
  return next;
}

void enqueue(struct node *node) {
  CMM_STORE_SHARED(node->next, NULL);
  append(&shared_tail, node, node);
}

// Walks the nodes it was handed (a list taken from a shared queue) on a
// queue of its own.
void *worker(void *taken) {
  struct node *first = taken;
  struct node local_head = {NULL};
  struct tail local_tail = {&local_head};
#ifdef ESCAPES
  published_tail = &local_tail;
  // expected-note@#append-xchg {{'worker' orders the store to 'tail.p' before the load of 'node.next' with 'uatomic_xchg()' (in its call of 'append')}}
  append(&local_tail, first, first);
#else
  append(&local_tail, first, first);
#endif
  return CMM_LOAD_SHARED(first->next);
}
