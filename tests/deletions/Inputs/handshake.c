/* A flag handshake, Linux-kernel style: the request goes out with a release
 * store and is taken with an acquire load; the reply comes back the same
 * way. A full barrier guards the sleep/wake-up check (store buffering). */
#include "kernel.h"

static int hs_request, hs_request_ready;
static int hs_reply, hs_reply_ready;
static int hs_waiting, hs_pending;

void hs_ask(int request) {
  WRITE_ONCE(hs_request, request);
  smp_store_release(&hs_request_ready, 1);
}

int hs_serve(void) {
  if (!smp_load_acquire(&hs_request_ready))
    return 0;
  WRITE_ONCE(hs_reply, READ_ONCE(hs_request) + 1);
  smp_store_release(&hs_reply_ready, 1);
  return 1;
}

int hs_answer(void) {
  return smp_load_acquire(&hs_reply_ready) ? READ_ONCE(hs_reply) : -1;
}

/* The server goes to sleep unless work arrived; a client posts work and
 * wakes it unless it is awake. */
int hs_may_sleep(void) {
  WRITE_ONCE(hs_waiting, 1);
  smp_mb(); /* announce the sleep before checking for work */
  return !READ_ONCE(hs_pending);
}

int hs_post(void) {
  WRITE_ONCE(hs_pending, 1);
  smp_mb(); /* post the work before checking for a sleeper */
  return READ_ONCE(hs_waiting);
}
