// Linux kernel, block/blk-mq-tag.c: commit 8ee1b7b9d876 ("blk-mq: fix
// waitqueue_active without memory barrier in block/blk-mq-tag.c").
//
// Changing the tag depth stores the new depth and then wakes the waiters, but
// the wake-up first tests waitqueue_active(), a lockless load of the wait
// list, with nothing ordering it after the store of the depth. A task in
// bt_get() adds itself to the wait list in prepare_to_wait() (whose
// set_current_state() is a full barrier) and then reads the depth. Both can
// miss the other: Dekker. The fix puts smp_mb() at the top of
// blk_mq_tag_wakeup_all(). The analyzer must report missing-barrier in
// 'blk_mq_tag_update_depth' (through its helpers) for the store to
// 'blk_mq_bitmap_tags.depth' before the load of 'wait_queue_head.first',
// paired with 'bt_get'. The reduction marks the depth accesses (plain in the
// original) so that the fixed version is quiet.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "kernel.h"

struct wait_queue_entry {
  struct wait_queue_entry *next;
  void *task;
};

struct wait_queue_head {
  struct wait_queue_entry *first;
};

struct blk_mq_bitmap_tags {
  unsigned int depth;
  struct wait_queue_head wait;
};

static void __add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w) {
  w->next = wq->first;
  WRITE_ONCE(wq->first, w);
}

static void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w) {
  __add_wait_queue(wq, w);
  smp_mb(); // before-note {{'bt_get' orders the store to 'blk_mq_bitmap_tags.wait.first' before the load of 'blk_mq_bitmap_tags.depth'}}
}

static int waitqueue_active(struct wait_queue_head *wq) {
  return READ_ONCE(wq->first) != 0; // before-warning {{store to 'blk_mq_bitmap_tags.depth' before the load of 'blk_mq_bitmap_tags.wait.first' in 'blk_mq_tag_update_depth'}} \
                                       before-note {{scenario 10}}
}

extern void wake_up_all(struct wait_queue_head *wq);
extern void io_schedule(void);

static void blk_mq_tag_wakeup_all(struct blk_mq_bitmap_tags *bt) {
#ifdef FIXED
  smp_mb();
#endif
  if (waitqueue_active(&bt->wait))
    wake_up_all(&bt->wait);
}

void blk_mq_tag_update_depth(struct blk_mq_bitmap_tags *bt, unsigned int depth) {
  WRITE_ONCE(bt->depth, depth); // before-note {{'blk_mq_tag_update_depth' stores 'blk_mq_bitmap_tags.depth' here}}
  blk_mq_tag_wakeup_all(bt);
}

int bt_get(struct blk_mq_bitmap_tags *bt, unsigned int in_use) {
  struct wait_queue_entry wait = {0};
  prepare_to_wait(&bt->wait, &wait);
  if (in_use < READ_ONCE(bt->depth))
    return 1;
  io_schedule();
  return 0;
}
