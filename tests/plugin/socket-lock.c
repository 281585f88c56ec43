// The kernel's socket lock. lock_sock(sk) is handed the socket, not a lock:
// it takes the socket's first member of a lock type, `sk_lock.slock`, which
// softirq code takes itself with bh_lock_sock() (spin_lock() of that member)
// and leaves alone while a process owns the socket. A setter under
// lock_sock() and a receive path under bh_lock_sock() run in mutual
// exclusion, as do two functions that each take lock_sock(), and one that
// says its caller holds it (sock_owned_by_me()). With -DUNLOCKED the
// receive path takes no lock and the pairing is reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DUNLOCKED -Xclang -verify=unlocked
// expected-no-diagnostics
#include "kernel.h"

typedef struct spinlock {
  int raw;
} spinlock_t;
typedef struct {
  spinlock_t slock;
  int owned;
} socket_lock_t;
struct sock_common {
  int skc_state;
};
struct sock {
  struct sock_common __sk_common;
  socket_lock_t sk_lock;
  int sk_err;
  int sk_shutdown;
};

void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void lock_sock_nested(struct sock *sk, int subclass);
static inline void lock_sock(struct sock *sk) { lock_sock_nested(sk, 0); }
void release_sock(struct sock *sk);
#define bh_lock_sock(__sk) spin_lock(&((__sk)->sk_lock.slock))
#define bh_unlock_sock(__sk) spin_unlock(&((__sk)->sk_lock.slock))
#define sock_owned_by_me(sk)                                                                       \
  do {                                                                                             \
    (void)(sk);                                                                                    \
  } while (0)

void sock_set_error(struct sock *sk, int err) {
  lock_sock(sk);
  WRITE_ONCE(sk->sk_err, err);
  smp_wmb(); // unlocked-note {{'sock_set_error' orders the store to 'sock.sk_err' before the store to 'sock.sk_shutdown' with 'smp_wmb()'}}
  WRITE_ONCE(sk->sk_shutdown, 1);
  release_sock(sk);
}

int sock_rcv(struct sock *sk) {
  int err = 0;
#ifndef UNLOCKED
  bh_lock_sock(sk);
#endif
  if (READ_ONCE(sk->sk_shutdown))
    err = READ_ONCE(sk->sk_err); // unlocked-warning {{no barrier orders the load of 'sock.sk_shutdown' before the load of 'sock.sk_err' in 'sock_rcv'; with 'sock_set_error' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                    unlocked-note {{scenario 3 (message passing) forbids}}
#ifndef UNLOCKED
  bh_unlock_sock(sk);
#endif
  return err;
}

int sock_poll_locked(struct sock *sk) {
  sock_owned_by_me(sk);
  if (READ_ONCE(sk->sk_shutdown))
    return READ_ONCE(sk->sk_err);
  return 0;
}

int sock_getsockopt_err(struct sock *sk) {
  int err = 0;
  lock_sock(sk);
  if (READ_ONCE(sk->sk_shutdown))
    err = READ_ONCE(sk->sk_err);
  release_sock(sk);
  return err;
}
