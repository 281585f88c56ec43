// A lock taken only where a condition holds, and released only where the
// same condition holds again, is held between the two either way: where
// the condition does not hold, the caller holds it (the kernel's
// `if (flags & BIND_WITH_LOCK) lock_sock(sk)` in __inet_bind(), whose
// callers without the flag already hold the socket's lock). So the
// binder's stores run under the lock the reader takes, and pair with
// nothing. A release under another condition (-DOTHER_CONDITION) or a
// condition the code changes in between (-DCHANGED) leaves the lock held on
// one path only, and the binder's missing write barrier is reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DOTHER_CONDITION -Xclang -verify=shared
// RUN: %barrierpair %s -DCHANGED -Xclang -verify=shared
// expected-no-diagnostics
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

#define WITH_LOCK 1
#define WITH_STATS 2

struct conn {
  pthread_mutex_t lock;
  int addr;
  int port;
};

void conn_bind(struct conn *c, int flags) {
  if (flags & WITH_LOCK)
    pthread_mutex_lock(&c->lock);
#ifdef CHANGED
  flags = 0;
#endif
  CMM_STORE_SHARED(c->addr, 1);
  CMM_STORE_SHARED(c->port, 2); // shared-warning {{no barrier orders the store to 'conn.addr' before the store to 'conn.port' in 'conn_bind'; with 'conn_read' this is scenario 12 (message passing), which needs cmm_smp_wmb() here}} \
                                   shared-note {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0}}
#ifdef OTHER_CONDITION
  if (flags & WITH_STATS)
#else
  if (flags & WITH_LOCK)
#endif
    pthread_mutex_unlock(&c->lock);
}

int conn_read(struct conn *c) {
  pthread_mutex_lock(&c->lock);
  int port = CMM_LOAD_SHARED(c->port);
  cmm_smp_rmb(); // shared-note {{'conn_read' orders the load of 'conn.port' before the load of 'conn.addr' with 'cmm_smp_rmb()'}}
  int addr = CMM_LOAD_SHARED(c->addr);
  pthread_mutex_unlock(&c->lock);
  return port + addr;
}
