// Linux kernel, fs/io_uring.c: commit 0d7bae69c574 ("io_uring: fix race
// condition when sq threads goes sleeping").
//
// Before the SQ polling thread sleeps it sets IORING_SQ_NEED_WAKEUP in the
// shared ring's flags and then looks at the SQ tail one last time. The
// application stores the new tail and then checks the flag to decide whether
// to wake the thread (the io_uring_setup(2) contract puts a full barrier
// there). Store then load on both sides: Dekker, which needs a full barrier
// on each side, but the thread had only smp_wmb() between setting the flag
// and loading the tail, so both could miss the other and a submission stalled.
// The fix turns that smp_wmb() into smp_mb(). The analyzer must report
// weak-barrier at the smp_wmb() of 'io_sq_thread' (store to
// 'sq_ring.flags' before the load of 'sq_ring.tail'), paired with
// 'io_submit_sqes_app'. The flags accesses are marked here (plain in the
// original), so that the fixed version is quiet.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "kernel.h"

#define IORING_SQ_NEED_WAKEUP 1U

struct io_sq_ring {
  unsigned head, tail;
  unsigned flags;
};

static struct io_sq_ring sq_ring;

extern void schedule(void);
extern void io_uring_enter_wakeup(void);

static int io_get_sqring(unsigned head) {
  return head != smp_load_acquire(&sq_ring.tail);
}

void io_sq_thread(unsigned head) {
  WRITE_ONCE(sq_ring.flags, READ_ONCE(sq_ring.flags) | IORING_SQ_NEED_WAKEUP);
#ifdef FIXED
  smp_mb();
#else
  smp_wmb(); // before-warning {{'smp_wmb()' is too weak to order the store to 'sq_ring.flags' before the load of 'sq_ring.tail' in 'io_sq_thread'; with 'io_submit_sqes_app' this is scenario 10 (Dekker)}} \
                before-note {{scenario 10}}
#endif
  if (!io_get_sqring(head))
    schedule();
  WRITE_ONCE(sq_ring.flags, READ_ONCE(sq_ring.flags) & ~IORING_SQ_NEED_WAKEUP);
}

void io_submit_sqes_app(unsigned tail) {
  smp_store_release(&sq_ring.tail, tail + 1);
  smp_mb(); // before-note {{'io_submit_sqes_app' orders the store to 'sq_ring.tail' before the load of 'sq_ring.flags'}}
  if (READ_ONCE(sq_ring.flags) & IORING_SQ_NEED_WAKEUP)
    io_uring_enter_wakeup();
}
