// Every call of msg_init() hands it memory just allocated and not yet
// published: directly, through msg_setup()'s own such parameter, or as a
// member of a new box.
#include <stdlib.h>

#include "msg.h"

struct msg *current;

void msg_setup(struct msg *m) {
  msg_init(m, 42);
}

void msg_publish(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return;
  msg_setup(m);
  cmm_smp_wmb();
  CMM_STORE_SHARED(current, m);
}

struct box *box_create(void) {
  struct box *b = malloc(sizeof *b);
  if (b)
    msg_init(&b->head, 1);
  return b;
}

// Hands its allocation to another unit's function before setting it up:
// unpublished still, where that function keeps it to itself.
struct msg *msg_make(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_clear(m);
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

#ifdef REUSED
// a message the program may have published: set up again in place
void msg_reuse(void) {
  msg_init(current, 0);
}
#endif
#ifdef LATE
// published before it is set up
void msg_publish_early(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return;
  CMM_STORE_SHARED(current, m);
  msg_setup(m);
}
#endif

// Taking and dropping the message's lock hands it to nobody.
struct msg *msg_make_locked(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_clear(m);
  spin_lock(&m->lock);
  m->owner = 1;
  spin_unlock(&m->lock);
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

// A helper of this unit that hands the message to another unit's function
// leaves the engine to decide, as a call of that function here does.
static void msg_prepare(struct msg *m) {
  msg_clear(m);
  CMM_STORE_SHARED(m->owner, 0);
}

struct msg *msg_make_prepared(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_prepare(m);
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

// A call through a function-pointer field runs what the program's
// initializers store there (msg_clear()), unless code stores other
// functions into the field (-DREPLACED).
struct msg *msg_make_through(const struct msg_ops *ops) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  ops->clear(m);
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

// A helper that hands back what it is given (the kernel's
// spinlock_check()) keeps it where its caller drops the value, and gives it
// another name where the caller keeps that (-DRENAMED).
spinlock_t *last_lock;

static spinlock_t *msg_lock_of(struct msg *m) {
  return &m->lock;
}

struct msg *msg_make_checked(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_clear(m);
  msg_lock_of(m);
#ifdef RENAMED
  last_lock = msg_lock_of(m);
#endif
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

// Freeing the message on a failure path hands it to nobody, though the
// freeing function queues it where another thread finds it (a deferred
// free, as the kernel's sk_free() hands a socket to call_rcu()).
struct msg *graveyard;

static void msg_free_deferred(struct msg *m) {
  m->node.next = (struct node *)graveyard;
  graveyard = m;
}

struct msg *msg_make_or_drop(int fail) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_clear(m);
  if (fail) {
    msg_free_deferred(m);
    return NULL;
  }
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}

// Handed to another unit's function that publishes it only after the
// set-up: the set-up before that call stays unpublished.
struct msg *msg_make_registered(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  msg_clear(m);
  m->data = 7;
  CMM_STORE_SHARED(m->ready, 1);
  msg_register(m);
  return m;
}

#ifdef REPUBLISHED
// Set up again after it was published, the loop's next round.
void msg_refill(int n) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return;
  msg_clear(m);
  for (int i = 0; i < n; i++) {
    m->data = i;
    CMM_STORE_SHARED(m->ready, 1);
    msg_register(m);
  }
}
#endif
