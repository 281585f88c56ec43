// The initialiser, in a unit of its own: it orders nothing, so it would
// need a write barrier if another thread could see the message it sets up.
#include "msg.h"

void msg_init(struct msg *m, int data) {
  m->data = data;
  CMM_STORE_SHARED(m->ready, 1);
}

// Keeps the message to itself, unless -DATTACHED or -DLINKED.
struct msg *attached;
struct node *nodes;

static void node_push(struct node *n) {
  n->next = nodes;
  CMM_STORE_SHARED(nodes, n);
}

void msg_clear(struct msg *m) {
  m->data = 0;
#ifdef ATTACHED
  attached = m;
#endif
#ifdef LINKED
  node_push(&m->node);
#endif
}

int msg_read(struct msg *m) {
  if (!CMM_LOAD_SHARED(m->ready))
    return -1;
  cmm_smp_rmb();
  return m->data;
}

const struct msg_ops msg_default_ops = {.clear = msg_clear};

// Null methods store nothing, named or not (`trace` above, both here).
void msg_ops_reset(struct msg_ops *ops) {
  *ops = (struct msg_ops){.trace = 0};
}

void raw_lock_take(spinlock_t *lock) {
  lock->held = 1;
}

void raw_lock_drop(spinlock_t *lock) {
  lock->held = 0;
}

#ifdef REPLACED
void msg_ops_replace(struct msg_ops *ops, void (*clear)(struct msg *m)) {
  ops->clear = clear;
}
#endif

struct msg *registered;

void msg_register(struct msg *m) {
  CMM_STORE_SHARED(registered, m);
}
