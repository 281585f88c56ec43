// A `static` variable whose address the unit only hands to helpers that
// keep it to themselves is reached by no pointer: its fields are its own
// objects, never its type's, and a function that works on any instance
// through a pointer does not pair with it (liburcu's `gp_waiters`, the
// wait-free stack of urcu.c's grace-period waiters, against the stack's
// API functions). The helper may take the pointer as a transparent union
// and read it into a local, as the stack's helpers do. Once the unit
// publishes the variable's address (-DESCAPES), a pointer may reach it,
// and the pair is reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DPLAIN_POINTER -Xclang -verify
// RUN: %barrierpair %s -DESCAPES -Xclang -verify=escapes
// expected-no-diagnostics
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/system.h>

struct node {
  struct node *next;
};
struct stack {
  struct node *head;
  int count;
};

#ifdef PLAIN_POINTER
typedef struct stack *stack_ptr_t;
#define STACK_OF(u) (u)
#else
typedef union {
  struct stack *_s;
} __attribute__((__transparent_union__)) stack_ptr_t;
#define STACK_OF(u) ((u)._s)
#endif

static inline void push(stack_ptr_t u_stack, struct node *node) {
  struct stack *s = STACK_OF(u_stack);
  CMM_STORE_SHARED(s->count, 1);
  cmm_smp_wmb(); // escapes-note {{'wait_here' orders the store to 'waiters.count' before the store to 'waiters.head' with 'cmm_smp_wmb()' (in its call of 'push')}}
  CMM_STORE_SHARED(s->head, node);
}

static struct stack waiters;
#ifdef ESCAPES
struct stack *published;
#endif

void wait_here(struct node *node) {
#ifdef ESCAPES
  published = &waiters;
#endif
  push(&waiters, node);
}

// Any stack, through a pointer: the head, then the count it guards.
int peek(struct stack *s) {
  struct node *head = CMM_LOAD_SHARED(s->head);
  return head ? CMM_LOAD_SHARED(s->count) : 0; // escapes-warning {{no barrier orders the load of 'stack.head' before the load of 'stack.count' in 'peek'; with 'wait_here' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                                  escapes-note {{scenario 3 (message passing) forbids}}
}
