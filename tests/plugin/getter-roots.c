// A getter, a helper whose body only returns memory reached from one of
// its parameters (the kernel's `sock_net(sk)`: `return read_pnet(&sk->sk_net)`,
// itself a `rcu_dereference_protected()` of a field), reaches one instance
// for one argument: two calls `sock_ns(sk)` start from `sk`, so the fields
// they reach go together (tests/plugin/instance-ties.c) and pair.
// tcp_fastopen_active_disable() and tcp_fastopen_active_should_disable()
// read and write their namespace's stamp and count this way; without it,
// their "Pairs with" comments had no partner and a missing barrier went
// unseen. Two sockets' namespaces are two instances.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=missing -DMISSING
// RUN: %barrierpair %s -Xclang -verify -DMISSING -DTWO_SOCKETS
// expected-no-diagnostics
#include "kernel.h"

struct netns {
  unsigned long disable_stamp;
  int disable_times;
};

typedef struct {
  struct netns *ns;
} ns_ref;

struct sock {
  ns_ref sk_ns;
};

static inline struct netns *read_ns(const ns_ref *ref) {
  return ({
    (void)0;
    ref->ns;
  });
}

static inline struct netns *sock_ns(const struct sock *sk) {
  return read_ns(&sk->sk_ns);
}

void disable(struct sock *sk, unsigned long now) {
  struct netns *ns = sock_ns(sk);
  WRITE_ONCE(ns->disable_stamp, now);
#ifndef MISSING
  smp_wmb();
#endif
  WRITE_ONCE(ns->disable_times, READ_ONCE(ns->disable_times) + 1); // missing-warning {{no barrier orders the store to 'netns.disable_stamp' before the store to 'netns.disable_times' in 'disable'; with 'should_disable' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                                                      missing-note {{scenario 12 (message passing) forbids}}
}

#ifdef TWO_SOCKETS
unsigned long should_disable(struct sock *sk, struct sock *other) {
#else
unsigned long should_disable(struct sock *sk) {
  struct sock *other = sk;
#endif
  if (!READ_ONCE(sock_ns(sk)->disable_times))
    return 0;
  smp_rmb(); // missing-note {{'should_disable' orders the load of 'netns.disable_times' before the load of 'netns.disable_stamp' with 'smp_rmb()'}}
  return READ_ONCE(sock_ns(other)->disable_stamp);
}
