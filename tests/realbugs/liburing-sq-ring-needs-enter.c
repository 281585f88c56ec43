// liburing, src/queue.c: commit 744f4156b25d ("Fix memory ordering in
// sq_ring_needs_enter"), for issue #541.
//
// With an SQ polling thread, io_uring_submit() publishes the new SQ tail
// (a release store, in __io_uring_flush_sq()) and then, in
// sq_ring_needs_enter(), reads the ring flags to see whether the kernel
// thread went to sleep and must be woken. The kernel thread sets
// IORING_SQ_NEED_WAKEUP, issues a full barrier and reads the tail once more
// before sleeping. Store then load on both sides (Dekker): a release store
// does not order the tail before the later load of the flags, so both sides
// could miss each other and the submission stalled with the thread asleep.
// The fix adds io_uring_smp_mb() before the load of the flags. The kernel's
// side is written here with the same C11 atomics. The analyzer must report
// missing-barrier in '__io_uring_submit' (in its call of
// 'sq_ring_needs_enter') for the store to 'io_rings.sq_tail' before the load
// of 'io_rings.sq_flags', paired with 'io_sq_thread'.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include <stdbool.h>
#include "Inputs/liburing-barrier.h"

#define IORING_SQ_NEED_WAKEUP (1U << 0)

struct io_rings {
  unsigned sq_head, sq_tail;
  unsigned sq_flags;
};

struct io_uring {
  struct io_rings *rings;
  unsigned sqe_tail;
};

static void __io_uring_flush_sq(struct io_uring *ring) {
  io_uring_smp_store_release(&ring->rings->sq_tail, ring->sqe_tail); // before-note {{'__io_uring_submit' stores 'io_rings.sq_tail' here}}
}

static bool sq_ring_needs_enter(struct io_uring *ring) {
#ifdef FIXED
  io_uring_smp_mb();
#endif
  return IO_URING_READ_ONCE(ring->rings->sq_flags) & IORING_SQ_NEED_WAKEUP; // before-warning {{store to 'io_rings.sq_tail' before the load of 'io_rings.sq_flags' in '__io_uring_submit'}} \
                                                                               before-note {{scenario 10}}
}

extern int io_uring_enter_wakeup(void);

int __io_uring_submit(struct io_uring *ring) {
  __io_uring_flush_sq(ring);
  if (sq_ring_needs_enter(ring))
    return io_uring_enter_wakeup();
  return 0;
}

/* The kernel's SQ thread, before it sleeps. */
bool io_sq_thread(struct io_rings *rings, unsigned cached_head) {
  IO_URING_WRITE_ONCE(rings->sq_flags, IO_URING_READ_ONCE(rings->sq_flags) | IORING_SQ_NEED_WAKEUP);
  atomic_thread_fence(memory_order_seq_cst); // before-note {{'io_sq_thread' orders the store to 'io_rings.sq_flags' before the load of 'io_rings.sq_tail'}}
  return io_uring_smp_load_acquire(&rings->sq_tail) == cached_head;
}
