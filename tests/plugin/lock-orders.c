// A kernel unlock followed by a lock orders as a full barrier (LKMM; for a
// store before it against a load after it only with
// smp_mb__after_unlock_lock()), but the locks are there to exclude, not to
// order for another CPU: nobody
// claimed that order. It satisfies a partner that needs it; it asks no
// barrier of an unordered side (statistics read without the lock) unless
// that side checks a flag before it reads what the flag guards (message
// passing meant), nor of a side whose own order is too weak on the same
// terms, and pairs with no other order nobody claimed, such as a
// walk's dependency (the kernel's hash walks against sunrpc's
// cache_flush(), which takes and drops a lock for each round).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DTESTED -Xclang -verify=expected,tested
#include "kernel.h"
#include "kernel-spinlock.h"

struct stats {
  spinlock_t lock;
  int count, total;
};

// The kfree_rcu() shrinker's shape: a drain that empties under the lock
// and then reads the count in a new round.
int stats_drain(struct stats *s) {
  int count;
  spin_lock(&s->lock);
  WRITE_ONCE(s->total, 0);
  spin_unlock(&s->lock);
  spin_lock(&s->lock);
  count = READ_ONCE(s->count);
  spin_unlock(&s->lock);
  return count;
}

// A snapshot of both, a hint: no barrier meant.
int stats_sum(struct stats *s) { return READ_ONCE(s->count) + READ_ONCE(s->total); }

struct node {
  struct node *next;
};
struct list {
  spinlock_t lock;
  struct node *first;
};

int list_walk(struct list *l) {
  struct node *first = READ_ONCE(l->first);
  return READ_ONCE(first->next) != 0;
}

int list_rounds(struct list *l) {
  struct node *next, *first;
  spin_lock(&l->lock);
  next = READ_ONCE(l->first->next);
  spin_unlock(&l->lock);
  spin_lock(&l->lock);
  first = READ_ONCE(l->first);
  spin_unlock(&l->lock);
  return next == first;
}

void list_set_first(struct list *l, struct node *n) { WRITE_ONCE(l->first, n); }
void node_set_next(struct node *n, struct node *next) { WRITE_ONCE(n->next, next); }

// A message passed in two rounds of the lock and read without it: the
// reader that checks the flag needs its rmb.
struct message {
  spinlock_t lock;
  int data, ready;
};

void message_send(struct message *m, int data) {
  spin_lock(&m->lock);
  WRITE_ONCE(m->data, data);
  spin_unlock(&m->lock);
  spin_lock(&m->lock); // expected-note {{'message_send' orders the store to 'message.data' before the store to 'message.ready' with 'spin_lock()'}}
  WRITE_ONCE(m->ready, 1);
  spin_unlock(&m->lock);
}

int message_receive(struct message *m) {
  if (!READ_ONCE(m->ready))
    return -1;
  smp_rmb();
  return READ_ONCE(m->data);
}

int message_peek(struct message *m) {
  if (!READ_ONCE(m->ready))
    return -1;
  return READ_ONCE(m->data); // expected-warning {{no barrier orders the load of 'message.ready' before the load of 'message.data' in 'message_peek'; with 'message_send' this is scenario 3 (message passing)}} \
                                expected-note {{scenario 3 (message passing) forbids}}
}

// A side whose own order is too weak (a dependency where the row needs a
// full barrier) is not held to an order nobody claimed either: a task's
// exit sets its flag under the lock and reads its credentials in a new
// round, the checker reads the credentials and then the flag with no test
// between (the kernel's set_task_ioprio() against exit_signals(), which has
// no smp_mb__after_unlock_lock(): without it an unlock and a lock order no
// store before a later load, and no pair forms, unlock-lock-store-load.c).
// With a test of the credentials first (-DTESTED), message passing is
// meant.
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

struct cred {
  int uid;
};

struct task {
  spinlock_t lock;
  struct cred *cred;
  int flags;
};

void task_exit(struct task *t) {
  spin_lock(&t->lock);
  WRITE_ONCE(t->flags, 1);
  spin_unlock(&t->lock);
  spin_lock(&t->lock); // tested-note {{'task_exit' orders the store to 'task.flags' before the load of 'task.cred' with 'spin_lock()'}}
  smp_mb__after_unlock_lock();
  (void)READ_ONCE(t->cred);
  spin_unlock(&t->lock);
}

void task_set_cred(struct task *t, struct cred *c) { rcu_assign_pointer(t->cred, c); }

int task_check(struct task *t) {
  struct cred *c = rcu_dereference(t->cred); // tested-warning {{'rcu_dereference()' is too weak to order the load of 'task.cred' before the load of 'task.flags' in 'task_check'; with 'task_exit' this is scenario 2}} \
                                                tested-note {{scenario 2 forbids}}
#ifdef TESTED
  if (!c)
    return 0;
#endif
  return READ_ONCE(c->uid) + READ_ONCE(t->flags);
}
