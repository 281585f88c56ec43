// How far below a call its nearest primitive is decides whether the call
// is followed (three calls at most, deep-calls.c): the shortest chain of
// calls, however a recursion among the helpers is entered. Here
// `walk_node()` and `walk_down()` call each other, and `walk_node()` also
// calls `mark_ready()`, whose store of the flag is marked. The unit asks
// first how far `walk_node()` is (the first defined), and that walk
// re-entered `walk_down()` through the recursion before it met
// `mark_ready()`: it used to record `walk_down()` as reaching no primitive
// at all, so `publish()`'s call of it was never followed and its missing
// barrier went unseen (and which member got the wrong depth followed the
// order of a pointer-keyed set, so one unit could give two programs).
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

struct message {
  int payload;
  int ready;
};

static void mark_ready(struct message *m) {
  // expected-warning@+2 {{no barrier orders the store to 'message.payload' before the store to 'message.ready' in 'publish' (in its call of 'mark_ready'); with 'consume' this is scenario 12 (message passing), which needs smp_wmb() here}}
  // expected-note@+1 {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0}}
  WRITE_ONCE(m->ready, 1);
}

static void walk_down(struct message *m, int depth);

static void walk_node(struct message *m, int depth) {
  walk_down(m, depth);
  mark_ready(m);
}

static void walk_down(struct message *m, int depth) {
  if (depth)
    walk_node(m, depth - 1);
}

void publish(struct message *m) {
  m->payload = 42; // expected-note {{'publish' stores 'message.payload' here, before the store of 'message.ready' with no barrier between}}
  walk_down(m, 1);
}

int consume(struct message *m) {
  if (!READ_ONCE(m->ready))
    return -1;
  smp_rmb(); // expected-note {{'consume' orders the load of 'message.ready' before the load of 'message.payload' with 'smp_rmb()'}}
  return m->payload;
}
