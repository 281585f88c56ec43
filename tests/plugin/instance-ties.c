// Fields named by their type (every `struct item`'s `ready`) carry no
// identity of their own: a pairing of two of them claims that both sides
// reach one instance of each, which holds only where the instances go
// together on each side. They do when both accesses start from one
// variable (`box->ready`, `box->item.data`, also through a helper given
// `&box->item`), when the second is found through the first (`p =
// READ_ONCE(q->head); p->data`), when a store writes the pointer the first
// went through (publication), or when one's value is compared with it. Two
// fields reached from unrelated pointers (the kernel's `list_head.next`
// against `atomic_t.counter`) are no pairing.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

struct item {
  int data;
};

struct box {
  int ready;
  struct item item;
};

// ---- Unrelated pointers on both sides: no pairing, however the fields are
// ordered ----

void fill_unrelated(struct item *item, struct box *box) {
  item->data = 1;
  WRITE_ONCE(box->ready, 1);
}

int read_unrelated(struct item *item, struct box *box) {
  if (!READ_ONCE(box->ready))
    return 0;
  smp_rmb();
  return READ_ONCE(item->data);
}

// ---- One variable on both sides: a pairing (message passing) ----

struct slot {
  int value;
  int full;
};

static void set_value(struct slot *slot, int value) {
  WRITE_ONCE(slot->value, value); // expected-note {{'fill_slot' stores 'slot.value' here}}
}

void fill_slot(struct slot *slot) {
  set_value(slot, 1);
  WRITE_ONCE(slot->full, 1); // expected-warning {{no barrier orders the store to 'slot.value' before the store to 'slot.full' in 'fill_slot'; with 'read_slot' this is scenario 12 (message passing)}} \
                                expected-note {{scenario 12}}
}

int read_slot(struct slot *slot) {
  if (!READ_ONCE(slot->full))
    return 0;
  smp_rmb(); // expected-note {{'read_slot' orders the load of 'slot.full' before the load of 'slot.value' with 'smp_rmb()'}}
  return READ_ONCE(slot->value);
}

// ---- A helper given a field of the variable: the same instance ----

struct waiter {
  int first;
};

struct tags {
  int depth;
  struct waiter wait;
};

static void add_waiter(struct waiter *wait) {
  WRITE_ONCE(wait->first, 1);
}

static int has_waiter(struct waiter *wait) {
  return READ_ONCE(wait->first); // expected-warning {{no barrier orders the store to 'tags.depth' before the load of 'tags.wait.first' in 'resize' (in its call of 'has_waiter'); with 'sleep_on_tags' this is scenario 10 (Dekker)}} \
                                    expected-note {{scenario 10}}
}

void resize(struct tags *tags, int depth) {
  WRITE_ONCE(tags->depth, depth); // expected-note {{'resize' stores 'tags.depth' here}}
  has_waiter(&tags->wait);
}

int sleep_on_tags(struct tags *tags) {
  add_waiter(&tags->wait);
  smp_mb(); // expected-note {{'sleep_on_tags' orders the store to 'tags.wait.first' before the load of 'tags.depth' with 'smp_mb()'}}
  return READ_ONCE(tags->depth);
}

// ---- Published through a pointer: the store writes the first's root, the
// reader finds the second through the first ----

struct node {
  int key;
};

struct table {
  struct node *head;
};

void publish(struct table *table, struct node *node) {
  WRITE_ONCE(node->key, 1);
  WRITE_ONCE(table->head, node); // expected-warning {{no barrier orders the store to 'node.key' before the store to 'table.head' in 'publish'; with 'lookup' this is scenario 12 (message passing)}} \
                                    expected-note {{scenario 12}}
}

int lookup(struct table *table) {
  struct node *node = READ_ONCE(table->head); // expected-note {{'lookup' orders the load of 'table.head' before the load of 'node.key'}}
  return node ? READ_ONCE(node->key) : 0;
}
