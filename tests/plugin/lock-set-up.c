// A function that sets a lock up in the structure a parameter points to
// (here a wait queue's, as the kernel's percpu rwsem set-up does) is that
// structure's set-up: nobody can take the lock yet, so nobody else reaches
// the structure yet either, whoever calls the function. Its stores pair
// with nothing. Without the lock's set-up (-DNO_LOCK_SET_UP) the parameter
// is any caller's memory, and the stores race with the reader.
//
// The set-up may be in a function of the unit it calls with the parameter
// (-DTHROUGH_HELPER, after its own stores: handing the parameter to a
// helper before them publishes it), but must run on every way through: a lock set up
// under a test (-DLAZY_SET_UP, as a structure that sets itself up on first
// use does) says nothing about who else reaches the structure.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DTHROUGH_HELPER -Xclang -verify
// RUN: %barrierpair %s -DNO_LOCK_SET_UP -Xclang -verify=shared
// RUN: %barrierpair %s -DLAZY_SET_UP -Xclang -verify=shared
// expected-no-diagnostics
#include "kernel.h"

struct wait_queue_head {
  int lock;
};
void __init_waitqueue_head(struct wait_queue_head *queue, const char *name, void *key);
#define init_waitqueue_head(queue) __init_waitqueue_head((queue), #queue, 0)

struct semaphore {
  int *read_count;
  struct wait_queue_head waiters;
  int block;
};

static void set_up_waiters(struct semaphore *semaphore) {
  init_waitqueue_head(&semaphore->waiters);
}

void semaphore_set_up(struct semaphore *semaphore, int *counts) {
  semaphore->read_count = counts;
#if defined(LAZY_SET_UP)
  if (!READ_ONCE(semaphore->block))
    init_waitqueue_head(&semaphore->waiters);
#elif !defined(NO_LOCK_SET_UP) && !defined(THROUGH_HELPER)
  init_waitqueue_head(&semaphore->waiters);
#endif
  WRITE_ONCE(semaphore->block, 0); // shared-warning {{no barrier orders the store to 'semaphore.read_count' before the store to 'semaphore.block' in 'semaphore_set_up'; with 'semaphore_read' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                      shared-note {{scenario 12}}
#ifdef THROUGH_HELPER
  set_up_waiters(semaphore);
#endif
}

int semaphore_read(struct semaphore *semaphore) {
  if (smp_load_acquire(&semaphore->block)) // shared-note {{'semaphore_read' orders the load of 'semaphore.block' before the load of 'semaphore.read_count' with 'smp_load_acquire()'}}
    return -1;
  return *semaphore->read_count;
}
