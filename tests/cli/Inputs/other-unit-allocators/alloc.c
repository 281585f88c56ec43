// The allocator, in a unit of its own, and the reader of a message.
#include <stdlib.h>

#include "msg.h"

static struct msg shared_message;
struct msg *registered;

// Returns memory it has just allocated and handed to nobody, or NULL.
struct msg *msg_new(void) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  m->ready = 0;
  return m;
}

// Returns a message every thread may reach: no allocator.
struct msg *msg_current(void) {
  return &shared_message;
}

void msg_register(struct msg *m) {
  CMM_STORE_SHARED(registered, m);
}

int msg_read(struct msg *m) {
  if (!CMM_LOAD_SHARED(m->ready))
    return -1;
  cmm_smp_rmb();
  return m->data;
}
