// A function that casts its structure pointer to a type that holds the
// structure before anything else (`struct tcp_sock *tp = tcp_sk(sk);` at
// the top of every TCP function, `container_of()` of a work item) says
// what the pointer points into. Fields named by the inner type (`sock.err`)
// then carry that identity: a TCP socket's and a UNIX socket's are two
// instances, and no pairing and no race joins them. A function that says
// nothing (a socket layer's generic code) still meets both, and so does
// one that casts only under a test of the socket's kind (-DUNDER_TEST).
// Two functions of one kind pair as before (-DSAME_KIND). A helper's own
// casts hold for its own code, which runs only where it is called
// (-DIN_HELPER: `unix_release()` hands the socket to a helper that casts).
// The kernel's tcp_sk() since 6.1 is container_of_const(): a _Generic whose
// choice casts the container_of() again, of a member two structures down
// (`inet_conn.icsk_inet.sk`), and a `const` pointer takes it
// (-DCONST_CONTAINER): the same TCP socket.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DGENERIC -Xclang -verify=generic
// RUN: %barrierpair %s -DUNDER_TEST -Xclang -verify=generic
// RUN: %barrierpair %s -DSAME_KIND -Xclang -verify=same
// RUN: %barrierpair %s -DIN_HELPER -Xclang -verify
// RUN: %barrierpair %s -DCONST_CONTAINER -Xclang -verify
// RUN: %barrierpair %s -DCONST_CONTAINER -DSAME_KIND -Xclang -verify=same
// expected-no-diagnostics
#include "kernel.h"

#define container_of(ptr, type, member)                                                            \
  ({                                                                                               \
    void *__mptr = (void *)(ptr);                                                                  \
    ((type *)(__mptr - __builtin_offsetof(type, member)));                                         \
  })

struct sock {
  int err;
  int shutdown;
};

struct inet_sock {
  struct sock sk;
  int ttl;
};

struct tcp_sock {
  struct inet_sock inet;
  int seq;
};

struct unix_sock {
  struct sock sk;
  int path;
};

#ifdef CONST_CONTAINER
#define container_of_const(ptr, type, member)                                                      \
  _Generic(ptr,                                                                                    \
      const __typeof__(*(ptr)) *: ((const type *)container_of(ptr, type, member)),                \
      default: ((type *)container_of(ptr, type, member)))
#define tcp_sk(ptr) container_of_const(ptr, struct tcp_sock, inet.sk)
#else
static inline struct tcp_sock *tcp_sk(struct sock *sk) { return (struct tcp_sock *)sk; }
#endif
static inline struct unix_sock *unix_sk(struct sock *sk) { return container_of(sk, struct unix_sock, sk); }

// A TCP error: the error, then the shutdown, ordered.
void tcp_reset(struct sock *sk) {
  struct tcp_sock *tp = tcp_sk(sk);
  tp->seq = 0;
  WRITE_ONCE(sk->err, 1);
  smp_wmb(); // same-note {{'tcp_reset' orders the store to 'sock.err' before the store to 'sock.shutdown' with 'smp_wmb()'}} \
                generic-note {{'tcp_reset' orders the store to 'sock.err' before the store to 'sock.shutdown' with 'smp_wmb()'}}
  WRITE_ONCE(sk->shutdown, 1);
}

#if defined(SAME_KIND)
// Another TCP function: it reads the two with no barrier, and pairs.
int tcp_poll(struct sock *sk) {
  const struct tcp_sock *tp = tcp_sk(sk);
  if (!READ_ONCE(sk->shutdown))
    return tp->seq;
  return READ_ONCE(sk->err); // same-warning {{no barrier orders the load of 'sock.shutdown' before the load of 'sock.err' in 'tcp_poll'; with 'tcp_reset' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                same-note {{scenario 3 (message passing) forbids}}
}
#elif defined(GENERIC) || defined(UNDER_TEST)
// Code for every kind of socket, or one that knows the kind only on one
// way: it may hold the TCP socket.
int sock_poll(struct sock *sk, int is_unix) {
#ifdef UNDER_TEST
  if (is_unix)
    unix_sk(sk)->path = 0;
#endif
  if (!READ_ONCE(sk->shutdown))
    return 0;
  return READ_ONCE(sk->err); // generic-warning {{no barrier orders the load of 'sock.shutdown' before the load of 'sock.err' in 'sock_poll'; with 'tcp_reset' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                generic-note {{scenario 3 (message passing) forbids}}
}
#elif defined(IN_HELPER)
static int unix_release_sock(struct sock *sk) {
  struct unix_sock *u = unix_sk(sk);
  if (!READ_ONCE(sk->shutdown))
    return u->path;
  return READ_ONCE(sk->err);
}

int unix_release(struct sock *sk) {
  if (!sk)
    return 0;
  return unix_release_sock(sk);
}
#else
// A UNIX socket's poll: never the TCP socket's fields.
int unix_poll(struct sock *sk) {
  struct unix_sock *u = unix_sk(sk);
  if (!READ_ONCE(sk->shutdown))
    return u->path;
  return READ_ONCE(sk->err);
}
#endif
