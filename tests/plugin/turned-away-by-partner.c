// A reader that goes on to its second access only where its first load
// found a route (`if (!dst) return;`), against a partner that orders its
// own stores and only ever clears the route (the kernel's UDP disconnect
// against a socket's release_cb): the outcome message passing forbids needs
// the reader to read the partner's store, and then it stops. A third
// function that sets the route again (-DTHIRD, which any program has: the
// connect that sets it in the first place) may let the reader through, but
// that is a pairing of the third function's, with a third CPU, which only
// beta checks; with beta every store of the route counts and the pairing
// stands. A partner that may store a route of its own lets the reader
// through (-DREROUTE): the pairing stands without beta too. A partner that
// clears the route through a helper, exchanging in the helper's parameter
// bound to NULL (-DBY_HELPER: the kernel's `sk_dst_reset(sk)`, which calls
// `sk_dst_set(sk, NULL)` and its `xchg(&sk->sk_dst_cache, dst)`), only
// clears it too, also where the exchange is x86's instruction as the
// kernel writes it (-DASSEMBLY); handed a route (-DBY_HELPER -DREROUTE),
// it stores one. The reader's test may be written as the kernel's
// release_cb writes it (-DKERNEL_READER): the route read through a getter
// whose value is a statement expression's local, tested first in a chain
// of `||`, into a local the function later reuses.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DTHIRD -Xclang -verify
// RUN: %barrierpair %s -DTHIRD -fplugin-arg-barrierpair-beta -Xclang -verify=flagged
// RUN: %barrierpair %s -DREROUTE -Xclang -verify=flagged
// RUN: %barrierpair %s -DBY_HELPER -Xclang -verify
// RUN: %barrierpair %s -DBY_HELPER -DASSEMBLY -Xclang -verify
// RUN: %barrierpair %s -DBY_HELPER -DASSEMBLY -DKERNEL_READER -Xclang -verify
// RUN: %barrierpair %s -DKERNEL_READER -DREROUTE -Xclang -verify=kernel
// RUN: %barrierpair %s -DBY_HELPER -DREROUTE -Xclang -verify=helper
// expected-no-diagnostics
#include <stddef.h>

#include "kernel.h"

struct route {
  int mtu;
};

struct conn {
  struct route *dst;
  int port;
};

#ifdef KERNEL_READER
static inline struct route *conn_dst_get(struct conn *c) {
  return ({
    struct route *local = (struct route *)READ_ONCE(c->dst); // kernel-note {{'conn_release_cb' loads 'conn.dst' here, before the load of 'conn.port' with no barrier between}}
    (struct route *)(local);
  });
}

int route_check(struct route *dst);

int conn_release_cb(struct conn *c) {
  struct route *dst = conn_dst_get(c);
  if (!dst || !dst->mtu || route_check(dst))
    return 0;
  int port = READ_ONCE(c->port); // kernel-warning {{no barrier orders the load of 'conn.dst' before the load of 'conn.port' in 'conn_release_cb'}} \
                                    kernel-note {{scenario 3 (message passing) forbids}}
  dst = NULL;
  return port + (dst ? 1 : 0);
}
#else
int conn_release_cb(struct conn *c) {
  struct route *dst = READ_ONCE(c->dst);
  if (!dst)
    return 0;
  return READ_ONCE(c->port); // flagged-warning {{no barrier orders the load of 'conn.dst' before the load of 'conn.port' in 'conn_release_cb'; with 'conn_disconnect' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                flagged-note {{scenario 3 (message passing) forbids}} \
                                helper-warning {{no barrier orders the load of 'conn.dst' before the load of 'conn.port' in 'conn_release_cb'}} \
                                helper-note {{scenario 3 (message passing) forbids}}
}
#endif

#ifdef ASSEMBLY
#define xchg(p, v)                                                                                 \
  ({                                                                                               \
    __typeof__(*(p)) __ret = (v);                                                                  \
    __asm__ __volatile__("xchgq %q0, %1" : "+r"(__ret), "+m"(*(p)) : : "memory", "cc");            \
    __ret;                                                                                         \
  })
#else
#define xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#endif

static inline void conn_dst_set(struct conn *c, struct route *dst) {
  struct route *old = xchg(&c->dst, dst); // helper-note {{'conn_disconnect' orders the store to 'conn.port' before the store to 'conn.dst' with 'xchg()' (in its call of 'conn_dst_set')}}
  (void)old;
}

void conn_disconnect(struct conn *c, struct route *next) {
  WRITE_ONCE(c->port, 0);
  smp_wmb(); // flagged-note {{'conn_disconnect' orders the store to 'conn.port' before the store to 'conn.dst' with 'smp_wmb()'}} \
                kernel-note {{'conn_disconnect' orders the store to 'conn.port' before the store to 'conn.dst' with 'smp_wmb()'}}
#if defined(BY_HELPER) && defined(REROUTE)
  conn_dst_set(c, next);
#elif defined(BY_HELPER)
  (void)next;
  conn_dst_set(c, NULL);
#elif defined(REROUTE)
  WRITE_ONCE(c->dst, next);
#else
  (void)next;
  WRITE_ONCE(c->dst, 0);
#endif
}

#ifdef THIRD
void conn_connect(struct conn *c, struct route *r) {
  WRITE_ONCE(c->dst, r);
}
#endif
