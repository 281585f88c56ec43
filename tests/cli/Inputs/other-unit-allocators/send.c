// Sets up a message another unit's function returned: the data, then the
// flag, with no write barrier between. Quiet where that function is an
// allocator and the message is handed to nobody yet.
#include "msg.h"

struct msg *msg_send(void) {
#ifdef SHARED
  struct msg *m = msg_current();
#else
  struct msg *m = msg_new();
#endif
  if (!m)
    return m;
#ifdef HANDED
  msg_register(m);
#endif
  m->data = 42;
  CMM_STORE_SHARED(m->ready, 1);
  return m;
}
