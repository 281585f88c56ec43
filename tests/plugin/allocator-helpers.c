// An allocator of the unit whose value is an array member of the memory it
// allocated (the kernel's fib trie: `tn = tnode->kv; ... return tn;` in
// tnode_new()) and that prints the memory's address for debugging
// (`pr_debug("AT %p", tnode)`: a function with a printf format keeps what
// it formats) returns memory nobody else has seen: its caller's set-up
// pairs with nothing until it publishes the node. Published first
// (-DPUBLISH_FIRST), the same set-up races with the reader; so it does
// where the debug function has no format (-DNO_FORMAT), and may keep the
// pointer it is handed, or where the pointer is also an argument before
// the format's (-DHANDED, as kthread_create_on_node() hands `data` to a
// thread and formats its name).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DPUBLISH_FIRST -Xclang -verify=early
// RUN: %barrierpair %s -DNO_FORMAT -Xclang -verify=early
// RUN: %barrierpair %s -DHANDED -Xclang -verify=early
// expected-no-diagnostics
#include <stddef.h>

#include "kernel.h"

struct key_vector {
  unsigned long key;
  struct key_vector *parent;
};
struct tnode {
  int full_children;
  struct key_vector kv[1];
};

void *kzalloc(unsigned long size, int flags);
#ifdef NO_FORMAT
int log_debug(const char *format, ...);
#else
int log_debug(const char *format, ...) __attribute__((format(printf, 1, 2)));
#endif
int track(void *object, const char *format, ...) __attribute__((format(printf, 2, 3)));
void link_node(struct key_vector *node);

static struct key_vector *tnode_new(unsigned long key) {
  struct tnode *tnode = kzalloc(sizeof *tnode, 0);
  if (!tnode)
    return NULL;
#ifdef HANDED
  track(tnode, "AT %p\n", (void *)tnode);
#else
  log_debug("AT %p\n", (void *)tnode);
#endif
  tnode->full_children = 1;
  struct key_vector *tn = tnode->kv;
  tn->key = key;
  return tn;
}

void insert_node(unsigned long key, struct key_vector *parent) {
  struct key_vector *tn = tnode_new(key);
  if (!tn)
    return;
#ifdef PUBLISH_FIRST
  link_node(tn);
#endif
  tn->key = key;
  WRITE_ONCE(tn->parent, parent); // early-warning {{no barrier orders the store to 'key_vector.key' before the store to 'key_vector.parent' in 'insert_node'}} \
                                     early-note {{scenario 12 (message passing)}}
#ifndef PUBLISH_FIRST
  link_node(tn);
#endif
}

unsigned long node_key(struct key_vector *node) {
  struct key_vector *parent = smp_load_acquire(&node->parent); // early-note {{'node_key' orders the load of 'key_vector.parent' before the load of 'key_vector.key'}}
  return node->key + (parent ? 1 : 0);
}
