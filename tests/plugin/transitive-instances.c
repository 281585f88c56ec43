// transitive-weak-barrier on instances: a cycle goes through one instance
// of each object. Memory a function has just allocated is reached by others
// only through the pointer that publishes it; a link that reaches an
// object of that type through another pointer closes no cycle with it.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DSAME_MEMBER -fplugin-arg-barrierpair-beta -Xclang -verify=expected,same
// RUN: %barrierpair %s -DSAME_MEMBER -Xclang -verify
#include <stdlib.h>
#include "kernel.h"

struct item {
  int value;
};
struct item *published, *elsewhere;
int announced, seen;

// The fresh item's value, then the announcement, with a wmb.
void announce(void) {
  struct item *item = malloc(sizeof *item);
  if (!item)
    return;
  item->value = 1;
  smp_wmb();
  WRITE_ONCE(announced, 1);
  WRITE_ONCE(published, item);
}

void relay(void) {
  int r = READ_ONCE(announced);
  smp_mb();
  WRITE_ONCE(seen, r);
}

// Another item, found through another pointer: not the fresh one.
int look_elsewhere(void) {
  int r = READ_ONCE(seen);
  smp_mb();
  struct item *item = READ_ONCE(elsewhere);
  return r + (item ? item->value : 0);
}

// The same cycle through a shared item (named by its type, as the items
// reached through pointers are): the wmb is on a cycle of three.
struct item shared_item;
int shared_announced, shared_seen;

void announce_shared(void) {
  shared_item.value = 1;
  smp_wmb(); // expected-warning {{'smp_wmb()' is not transitive, but 'announce_shared' orders the store to 'shared_item.value' before the store to 'shared_announced' with it on a cycle through 'relay_shared' and 'look_shared'}} \
                expected-note {{read and write barriers are not transitive}}
  WRITE_ONCE(shared_announced, 1);
}

void relay_shared(void) {
  int r = READ_ONCE(shared_announced);
  smp_mb(); // expected-note {{'relay_shared' orders the load of 'shared_announced' before the store to 'shared_seen'}}
  WRITE_ONCE(shared_seen, r);
}

int look_shared(void) {
  int r = READ_ONCE(shared_seen);
  smp_mb(); // expected-note {{'look_shared' orders the load of 'shared_seen' before the load of 'shared_item.value'}}
  return r + shared_item.value;
}

// One type's field in two members of a container (`c->refs.counter` and
// `c->rmem.counter`, both `counter.counter` by type, as the kernel's
// `sk_refcnt` and `sk_rmem_alloc` are `atomic_t.counter`) is two pieces of
// memory: a cycle whose link goes from one to the other closes nothing.
// With -DSAME_MEMBER the relay reads the member the setup wrote, and the
// wmb is on a cycle of three; every function reaches the container through
// a pointer, so each link's instance is a guess, and only --beta reports
// the cycle.
struct counter {
  int counter;
};
struct conn {
  struct counter refs, rmem;
  int state;
};
int conn_flag;

// reached through a pointer to the member's type, as the atomics are
int counter_peek(struct counter *v) { return READ_ONCE(v->counter); }

void conn_setup(struct conn *c) {
  WRITE_ONCE(c->state, 1);
  smp_wmb(); // same-warning {{'smp_wmb()' is not transitive, but 'conn_setup' orders the store to 'conn.state' before the store to 'conn.refs.counter' with it on a cycle through 'conn_relay' and 'conn_look'}} \
                same-note {{read and write barriers are not transitive}}
  WRITE_ONCE(c->refs.counter, 1);
}

void conn_relay(struct conn *c) {
#ifdef SAME_MEMBER
  int r = READ_ONCE(c->refs.counter);
#else
  int r = READ_ONCE(c->rmem.counter);
#endif
  smp_mb(); // same-note {{'conn_relay' orders the load of 'conn.refs.counter' before the store to 'conn_flag'}}
  WRITE_ONCE(conn_flag, r);
}

int conn_look(struct conn *c) {
  int r = READ_ONCE(conn_flag);
  smp_mb(); // same-note {{'conn_look' orders the load of 'conn_flag' before the load of 'conn.state'}}
  return r ? READ_ONCE(c->state) : 0;
}
