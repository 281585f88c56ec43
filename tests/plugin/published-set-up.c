// missing-access-once: a third function's store that the row needs (scenario
// 4: a reader that finds a node through `next`, a remover that reads the
// node's key and then swings `next`) does not race with a load that finds the
// node through `next` when that function fills the node in and then links it
// with a barrier (liburcu 0.13.2's init_table_populate_partition() sets a
// bucket's reverse_hash, then links the bucket with uatomic_cmpxchg()). Nor
// does a load handed the node some other way, when both sides only load
// the key: the set-up is a plain store, and a third function's plain store
// is no sign that readers run against it (tests/plugin/race-partners.c).
// Strict marking flags both.
//
// RUN: %barrierpair %s -Xclang -verify=quiet
// RUN: %barrierpair %s -fplugin-arg-barrierpair-strict-marking -Xclang -verify=strict -Xclang -verify-ignore-unexpected=note
// quiet-no-diagnostics
#include <urcu/arch.h>
#include <urcu/pointer.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct node {
  unsigned long key;
  struct node *next;
};

void init_bucket(struct node *prev, struct node *bucket, unsigned long key) {
  bucket->key = key; // strict-note {{'init_bucket' stores 'node.key' here}}
  bucket->next = NULL;
  (void)uatomic_cmpxchg(&prev->next, NULL, bucket);
}

int lookup(struct node *bucket, unsigned long key) {
  struct node *node = rcu_dereference(bucket->next); // strict-note {{'lookup' orders the load of 'node.next' before the load of 'node.key'}}
  return node && node->key == key; // strict-warning {{the load of 'node.key' in 'lookup' is not marked, but it races with the store to 'node.key' in 'init_bucket'}}
}

int del(struct node *prev, struct node *node) {
  // strict-warning@+2 {{the load of 'node.key' in 'del' is not marked, but it races with the store to 'node.key' in 'init_bucket'; mark it: CMM_LOAD_SHARED(node->key)}}
  // strict-note@+1 {{scenario}}
  if (node->key == 0)
    return 0;
  return uatomic_cmpxchg(&prev->next, node, NULL) == node;
}
