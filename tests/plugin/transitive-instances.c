// transitive-weak-barrier on instances: a cycle goes through one instance
// of each object. Memory a function has just allocated is reached by others
// only through the pointer that publishes it; a link that reaches an
// object of that type through another pointer closes no cycle with it.
//
// RUN: %barrierpair %s -Xclang -verify
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
  smp_wmb(); // expected-warning {{'smp_wmb()' is not transitive, but 'announce_shared' orders the store to 'item.value' before the store to 'shared_announced' with it on a cycle through 'relay_shared' and 'look_shared'}} \
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
  smp_mb(); // expected-note {{'look_shared' orders the load of 'shared_seen' before the load of 'item.value'}}
  return r + shared_item.value;
}
