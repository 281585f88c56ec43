// Linux kernel, fs/aio.c: commit 2ff396be602f ("aio: add missing smp_rmb()
// in read_events_ring").
//
// The completion side fills an io_event slot of the shared ring and then
// advances the ring's tail, with smp_wmb() between the two stores. The
// io_getevents() side read the tail and then copied the events up to it
// with nothing ordering the two loads, so on ppc64 it could copy slots it had
// not yet seen filled (zeroed events). The fix puts smp_rmb() after the load
// of the tail. Message passing: the reader 'aio_read_events_ring' must be
// reported with missing-barrier for the load of 'ring.tail' before the
// load of a field of 'ring.io_events[]', paired with 'aio_complete'. The reduction
// marks the tail accesses (the kernel's memory model requires it; the
// original read it plainly under kmap), so the fixed version is quiet.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
// The structure copy out of the slot reads each of its fields; the ring is a
// global, so its objects are named by the variable ('ring.tail').
#include "kernel.h"

#define AIO_EVENTS 128

struct io_event {
  unsigned long data;
  long res;
};

struct aio_ring {
  unsigned head, tail;
  struct io_event io_events[AIO_EVENTS];
};

static struct aio_ring ring;

void aio_complete(unsigned long data, long res) {
  unsigned tail = ring.tail;
  ring.io_events[tail % AIO_EVENTS].data = data;
  ring.io_events[tail % AIO_EVENTS].res = res;
  smp_wmb(); // before-note-re {{'aio_complete' orders the store to 'ring.io_events[].{{data|res}}' before the store to 'ring.tail'}}
  WRITE_ONCE(ring.tail, tail + 1);
}

long aio_read_events_ring(struct io_event *out) {
  unsigned head = ring.head;
  unsigned tail = READ_ONCE(ring.tail);
#ifdef FIXED
  smp_rmb();
#endif
  if (head == tail)
    return 0;
  *out = ring.io_events[head % AIO_EVENTS]; // before-warning-re {{load of 'ring.tail' before the load of 'ring.io_events[].{{data|res}}' in 'aio_read_events_ring'; with 'aio_complete' this is scenario 3 (message passing)}} \
                                               before-note {{scenario 3}}
  ring.head = head + 1;
  return 1;
}
