// missing-access-once: a reader that reaches a payload's instance through a
// pointer it loaded does not race with the writer's set-up of that instance
// before its publication. The writer allocates a route, fills it in with
// plain stores and then publishes it with rcu_assign_pointer(); the reader
// walks the list with rcu_dereference() and reads the route's fields
// plainly. The publication hands the new route over: the reader finds it
// only through the pointer, whose load orders the read (an address
// dependency), so the plain read races with no store of the pairing (the
// kernel's fn_trie_dump_leaf() reading `fa->fa_slen` of an alias that
// fib_table_insert() set up before hlist_add_head_rcu()).
//
// Why the pairing of `bucket.first` with `route.len` forms and the read is
// not already exempt as a read under the check of the flag:
// - An event keeps at most six guard objects (BP_GUARDS_MAX). The read of
//   `r->len` sits under six checks of the filter, whose objects fill its
//   guards before its address sources are added, so `bucket.first` is not
//   among its guards; its address sources (a list of their own) still name
//   `bucket.first` and `route.next`. In the kernel, the trie walk that finds
//   the leaf and two checks of the dump fill the guards of `fa->fa_slen`
//   before `hlist_head.first` and `hlist_node.next`. With fewer checks the
//   read is guarded by the flag and quiet without this exemption too.
// - The writer links the route on one of two ways (after a given route or
//   at the head, as fib_insert_alias() does), so no one store of
//   `route.next` follows the set-up on every way on. With a single way, the
//   pairing is taken as the route's hand-over through `next`
//   (found-through-pointer.c) and nothing pairs at all.
// Strict marking flags the read: the pairing forms, and only the exemption
// keeps the default run quiet.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-strict-marking -Xclang -verify=strict -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"
#include <stdlib.h>

#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define rcu_dereference(p) READ_ONCE(p)

struct route {
  struct route *next;
  int table, type, len;
};

struct bucket {
  struct route *first;
};

struct dump_filter {
  int routes, table, type, scope, dev, protocol;
};

int route_insert(struct bucket *b, struct route *after, int table, int type, int len) {
  struct route *r = malloc(sizeof *r);
  if (!r)
    return -1;
  r->table = table;
  r->type = type;
  r->len = len;
  if (after) {
    r->next = after->next;
    rcu_assign_pointer(after->next, r);
  } else {
    r->next = b->first;
    rcu_assign_pointer(b->first, r);
  }
  return 0;
}

int route_dump(struct bucket *b, const struct dump_filter *f) {
  int sum = 0;
  for (struct route *r = rcu_dereference(b->first); r; r = rcu_dereference(r->next)) {
    if (f->routes && f->table && f->type && f->scope && f->dev && f->protocol)
      sum += r->len; // strict-warning {{the load of 'route.len' in 'route_dump' is not marked, but it races with the store to 'route.len' in 'route_insert'}}
  }
  return sum;
}
