// The kernel's rcu_dereference() under its other names (the _bh, _sched,
// _check, _raw and _rtnl forms, srcu_dereference()), which the primitive
// table does not list, is a READ_ONCE() into a local of a statement
// expression whose value the code dereferences: the address dependency
// orders the payload read through the pointer after the load, as with
// rcu_dereference() itself, and it races with no set-up done before the
// pointer's publication. (Listing them as consume loads of their own was
// tried on the kernel: it moved some 90 findings each way, 485 to 489.)
//
// RUN: %barrierpair %s -Xclang -verify
// expected-no-diagnostics
#include "kernel.h"

// As include/linux/rcupdate.h writes them: the value goes through a local
// of a statement expression.
#define __rcu_dereference_check(p, local, c)                                                       \
  ({                                                                                               \
    __typeof__(*p) *local = (__typeof__(*p) *)READ_ONCE(p);                                        \
    (void)(c);                                                                                     \
    ((__typeof__(*p) *)(local));                                                                   \
  })
#define rcu_dereference_check(p, c) __rcu_dereference_check((p), __local, (c))
#define rcu_dereference_bh(p) rcu_dereference_check(p, 0)
#define rcu_dereference_rtnl(p) rcu_dereference_check(p, 1)
#define srcu_dereference(p, s) rcu_dereference_check(p, (s) != 0)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

struct route {
  int metric;
  int flags;
};

struct table {
  struct route *best;
};

void table_publish(struct table *t, struct route *r) {
  r->metric = 10;
  r->flags = 1;
  rcu_assign_pointer(t->best, r);
}

int table_lookup_bh(struct table *t) {
  struct route *r = rcu_dereference_bh(t->best);
  return r ? r->metric + r->flags : 0;
}

int table_lookup_rtnl(struct table *t) {
  struct route *r = rcu_dereference_rtnl(t->best);
  return r ? r->metric + r->flags : 0;
}

int table_lookup_srcu(struct table *t, void *s) {
  struct route *r = srcu_dereference(t->best, s);
  return r ? r->metric + r->flags : 0;
}
