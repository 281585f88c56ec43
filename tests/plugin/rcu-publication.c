// rcu_assign_pointer() publishes the memory its value points to: it orders
// every earlier store before its own (a release), but what it claims is the
// initialisation of that memory, as rcu_dereference() on the other side
// orders only what is read through the pointer. A reader that loads the
// pointer and then an unrelated field (the kernel's tcp_disconnect(): a
// reset of the socket's round-trip time, then __sk_dst_reset()) pairs with
// nothing; a reader of the published memory whose load of the pointer
// orders nothing misses a barrier.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DPOINTEE -Xclang -verify=pointee -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DRELEASE -Xclang -verify=release -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"

// As the kernel writes it: the value goes through an integer local, and a
// constant NULL is stored without the release.
#define rcu_assign_pointer(p, v)                                                                   \
  do {                                                                                             \
    unsigned long assigned_ = (unsigned long)(v);                                                  \
    if (__builtin_constant_p(v) && assigned_ == 0)                                                 \
      WRITE_ONCE((p), (__typeof__(p))assigned_);                                                   \
    else                                                                                           \
      smp_store_release(&(p), (__typeof__(p))assigned_);                                           \
  } while (0)

struct route {
  int metric;
};
struct conn {
  int rtt;
  struct route *cached;
};

#ifndef POINTEE
// The round-trip time is no part of the route it publishes.
void reset_conn(struct conn *c, struct route *r) {
  WRITE_ONCE(c->rtt, 0);
#ifdef RELEASE
  smp_store_release(&c->cached, r);
#else
  rcu_assign_pointer(c->cached, r);
#endif
}
#else
// It fills in the route it publishes.
void reset_conn(struct conn *c, struct route *r) {
  WRITE_ONCE(r->metric, 0);
  rcu_assign_pointer(c->cached, r);
}
#endif

int conn_rtt(struct conn *c) {
  struct route *r = READ_ONCE(c->cached);
  return r ? READ_ONCE(c->rtt) : -1; // release-warning {{no barrier orders the load of 'conn.cached' before the load of 'conn.rtt' in 'conn_rtt'; with 'reset_conn' this is scenario 3 (message passing), which needs smp_rmb() here}}
}

// Through the pointer it loaded: READ_ONCE()'s address dependency orders it.
int route_metric(struct conn *c) {
  struct route *r = READ_ONCE(c->cached);
  return r ? READ_ONCE(r->metric) : -1;
}

// A relaxed C11 load orders nothing by dependency: the route read through
// the pointer needs a barrier when the writer filled it in.
int route_metric_relaxed(struct conn *c) {
  struct route *r = __atomic_load_n(&c->cached, __ATOMIC_RELAXED);
  return r ? READ_ONCE(r->metric) : -1; // pointee-warning {{no barrier orders the load of 'conn.cached' before the load of 'route.metric' in 'route_metric_relaxed'; with 'reset_conn' this is scenario 3 (message passing), which needs smp_rmb() here}}
}
