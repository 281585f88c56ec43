// A lock-free stack: push stores the node's `next` plainly, then publishes
// the node with a compare-and-swap (a full barrier); pop loads the head,
// then the head's `next` through it. What orders pop's two loads depends on
// the family: the kernel's READ_ONCE() orders the loads whose address it
// computes (the Linux-kernel memory model), liburcu's CMM_LOAD_SHARED()
// needs cmm_smp_read_barrier_depends() between them (a macro that expands
// to nothing on most machines, and still a barrier), and C11 needs an
// acquire (memory_order_consume is taken as acquire). The plain store of
// `next` is the payload of the publication in every pairing it is in, also
// where the swap's load half is the other access.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"
#include <stdatomic.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct node {
  struct node *next;
};

struct stack {
  struct node *head;
};

void push(struct stack *stack, struct node *node) {
  struct node *head = CMM_LOAD_SHARED(stack->head);
  for (;;) {
    node->next = head;
    // expected-note@+1 {{'push' orders the store to 'node.next' before the store to 'stack.head' with 'uatomic_cmpxchg()'}}
    struct node *seen = uatomic_cmpxchg(&stack->head, head, node);
    if (seen == head)
      return;
    head = seen;
  }
}

struct node *pop(struct stack *stack) {
  struct node *head = CMM_LOAD_SHARED(stack->head);
  while (head) {
    cmm_smp_read_barrier_depends();
    struct node *next = CMM_LOAD_SHARED(head->next);
    struct node *seen = uatomic_cmpxchg(&stack->head, head, next);
    if (seen == head)
      return head;
    head = seen;
  }
  return NULL;
}

struct node *top_next(struct stack *stack) {
  struct node *head = CMM_LOAD_SHARED(stack->head);
  cmm_smp_read_barrier_depends();
  return head ? CMM_LOAD_SHARED(head->next) : NULL;
}

// Without the dependency barrier, liburcu's loads are not ordered.
struct node *top_next_unordered(struct stack *stack) {
  struct node *head = CMM_LOAD_SHARED(stack->head);
  // expected-warning@+2 {{no barrier orders the load of 'stack.head' before the load of 'node.next' in 'top_next_unordered'; with 'push' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}}
  // expected-note@+1 {{scenario 3}}
  return head ? CMM_LOAD_SHARED(head->next) : NULL;
}

// The kernel's READ_ONCE() orders the dependent load by itself.
struct knode {
  struct knode *next;
};

struct kstack {
  struct knode *head;
};

void kpush(struct kstack *stack, struct knode *node) {
  WRITE_ONCE(node->next, NULL);
  smp_store_release(&stack->head, node);
}

struct knode *ktop_next(struct kstack *stack) {
  struct knode *head = READ_ONCE(stack->head);
  return head ? READ_ONCE(head->next) : NULL;
}

// C11 has no such order (memory_order_consume is taken as acquire): a
// relaxed load of the head orders nothing after it.
struct c11_node {
  struct c11_node *_Atomic next;
};

struct c11_stack {
  struct c11_node *_Atomic head;
};

void c11_push(struct c11_stack *stack, struct c11_node *node) {
  struct c11_node *head = atomic_load_explicit(&stack->head, memory_order_relaxed);
  do
    atomic_store_explicit(&node->next, head, memory_order_relaxed);
  // expected-note@+1 {{'c11_push' orders the store to 'c11_node.next' before the store to 'c11_stack.head' with 'atomic_compare_exchange_weak_explicit()'}}
  while (!atomic_compare_exchange_weak_explicit(&stack->head, &head, node, memory_order_release,
                                                memory_order_relaxed));
}

struct c11_node *c11_top_next(struct c11_stack *stack) {
  struct c11_node *head = atomic_load_explicit(&stack->head, memory_order_relaxed);
  // expected-warning@+2 {{no barrier orders the load of 'c11_stack.head' before the load of 'c11_node.next' in 'c11_top_next'; with 'c11_push' this is scenario 3 (message passing), which needs atomic_thread_fence(memory_order_acquire) here}}
  // expected-note@+1 {{scenario 3}}
  return head ? atomic_load_explicit(&head->next, memory_order_relaxed) : NULL;
}
