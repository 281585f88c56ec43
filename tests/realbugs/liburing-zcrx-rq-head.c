// liburing, examples/zcrx.c: commit 603f83e31761 ("examples/zcrx: fix RQ
// consumption ordering").
//
// The zero-copy receive refill queue is a ring the application fills and the
// kernel consumes: the kernel reads an entry and then publishes its new head
// with a release store, telling the application that the slot may be reused.
// rq_nr_queued() read that head with a plain load, and the application then
// wrote new entries into the slots it thought free: load of the head, then a
// store to a slot, against the kernel's load of the slot and release store of
// the head (scenario 5, load buffering). Without acquire ordering the
// application's store could overwrite an entry the kernel had not read yet.
// The fix loads the head with io_uring_smp_load_acquire(). The analyzer must
// report missing-barrier in 'refill_rq' (through 'rq_nr_queued') for the
// load of 'io_uring_zcrx_rq.khead' before the store to the slot (today
// named 'io_uring_zcrx_rqe.off'), paired with 'io_zcrx_ring_refill'; the
// kernel's release store is enough on its side, and the slot accesses need
// no marking (the store is made only after checking the head).
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/liburing-barrier.h"

#define RQ_ENTRIES 64

struct io_uring_zcrx_rqe {
  unsigned long off;
  unsigned len;
};

struct io_uring_zcrx_rq {
  unsigned khead, ktail;
  unsigned rq_tail;
  struct io_uring_zcrx_rqe rqes[RQ_ENTRIES];
};

static unsigned rq_nr_queued(struct io_uring_zcrx_rq *rq) {
#ifdef FIXED
  return rq->rq_tail - io_uring_smp_load_acquire(&rq->khead);
#else
  return rq->rq_tail - IO_URING_READ_ONCE(rq->khead); // before-note {{'refill_rq' loads 'io_uring_zcrx_rq.khead' here}}
#endif
}

void refill_rq(struct io_uring_zcrx_rq *rq, unsigned long off, unsigned len) {
  if (rq_nr_queued(rq) == RQ_ENTRIES)
    return;
  rq->rqes[rq->rq_tail % RQ_ENTRIES].off = off; // before-warning-re {{load of 'io_uring_zcrx_rq.khead' before the store to '{{[^']*}}rqe{{[^']*}}' in 'refill_rq'}} \
                                                   before-note {{scenario 5}}
  rq->rqes[rq->rq_tail % RQ_ENTRIES].len = len;
  rq->rq_tail++;
  io_uring_smp_store_release(&rq->ktail, rq->rq_tail);
}

/* The kernel's consumer. */
unsigned long io_zcrx_ring_refill(struct io_uring_zcrx_rq *rq, unsigned head) {
  unsigned long off = rq->rqes[head % RQ_ENTRIES].off;
  io_uring_smp_store_release(&rq->khead, head + 1); // before-note {{'io_zcrx_ring_refill'}}
  return off;
}
