// A queue's consumer reads a node's payload through the pointer it loaded
// from the previous node's `next`, and the producer fills the payload in
// before it stores the node there (liburcu's wfcqueue, as its workqueue and
// call_rcu threads use it: `work->func = f; enqueue(...)`, then
// `node->func(node)` on what a dequeue returned). What the consumer read
// before of another object (the queue's tail, compared against a node)
// says nothing about which node's payload it reads, so that pairing is no
// claim: the pair through `next`, the address dependency, orders it.
// Read through the pointer loaded from the tail itself, the payload does
// pair with the tail, and a missing barrier there is still reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DTHROUGH_TAIL -Xclang -verify=tail
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct node {
  struct node *next;
  int payload;
};

struct queue {
  struct node head;
  struct node *tail;
};

static struct queue jobs;

void enqueue(struct node *node, int payload) {
  node->payload = payload;
  struct node *old = uatomic_xchg(&jobs.tail, node); // expected-note {{'enqueue' orders the store to 'jobs.tail' before the store to 'node.next' with 'uatomic_xchg()'}} \
                                                        tail-note {{'enqueue' orders the store to 'node.payload' before the store to 'jobs.tail' with 'uatomic_xchg()'}}
  CMM_STORE_SHARED(old->next, node);
}

#ifdef THROUGH_TAIL
int last_payload(void) {
  struct node *last = CMM_LOAD_SHARED(jobs.tail);
  return last->payload; // tail-warning {{no barrier orders the load of 'jobs.tail' before the load of 'node.payload' in 'last_payload'; with 'enqueue' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                           tail-note {{scenario 3 (message passing) forbids}}
}
#else
static struct node *next_of(struct node *node) {
  struct node *next = CMM_LOAD_SHARED(node->next);
  if (next == NULL) {
    // The tail is read only when `next` was still null: a class of its own
    // (liburcu's wfcqueue.h:157 in docs/precision.md), still reported.
    if (CMM_LOAD_SHARED(jobs.tail) == node) // expected-warning {{no barrier orders the load of 'jobs.head.next' before the load of 'jobs.tail' in 'drain' (in its call of 'next_of')}} \
                                               expected-note {{scenario 3 (message passing) forbids}}
      return NULL;
    while ((next = CMM_LOAD_SHARED(node->next)) == NULL)
      caa_cpu_relax();
  }
  cmm_smp_read_barrier_depends();
  return next;
}

int drain(void) {
  int sum = 0;
  for (struct node *node = next_of(&jobs.head); node; node = next_of(node))
    sum += node->payload; // found through `next`: no pairing with the tail
  return sum;
}
#endif
