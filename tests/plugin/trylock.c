// A lock that may fail is held only where the code tested that it was
// taken. A reader that takes the inode's lock with a trylock (the
// kernel's LRU isolation, fs/inode.c: `if (!spin_trylock(&inode->i_lock))
// return;`) against a writer that holds it (igrab()): the two critical
// sections never overlap, so the writer's barrier needs no partner in
// the reader. So with POSIX's `pthread_mutex_trylock() == 0` (success is
// zero, -DPOSIX), `if (mutex_lock_interruptible(&m)) return;` (taken where
// it returns zero, -DINTERRUPTIBLE) and a reader's `down_read_trylock()`
// against a writer (-DREADER). A reader's lock excludes the writer, not
// another reader: with readers on both sides (-DREADER_WRITES) the pair
// is reported; and a trylock whose value nobody tests holds nothing the
// analysis can tell (-DUNTESTED).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DPOSIX -Xclang -verify
// RUN: %barrierpair %s -DINTERRUPTIBLE -Xclang -verify
// RUN: %barrierpair %s -DREADER -Xclang -verify
// RUN: %barrierpair %s -DREADER -DREADER_WRITES -Xclang -verify=untested
// RUN: %barrierpair %s -DUNTESTED -Xclang -verify=untested
// expected-no-diagnostics
#include <pthread.h>
#include "kernel.h"

typedef struct {
  int locked;
} spinlock_t;
struct mutex {
  int owner;
};
void mutex_unlock(struct mutex *lock);
int mutex_lock_interruptible(struct mutex *lock);
struct rw_semaphore {
  int count;
};
void down_write(struct rw_semaphore *sem);
void down_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
int down_read_trylock(struct rw_semaphore *sem);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);

#define FREEING 0x20

struct inode {
  spinlock_t i_lock;
  pthread_mutex_t i_mutex;
  struct mutex i_rwsem;
  struct rw_semaphore i_mmap;
  unsigned long i_state;
  int i_count;
};

#if defined(READER_WRITES)
#define lock_inode(inode) down_read(&(inode)->i_mmap)
#define unlock_inode(inode) up_read(&(inode)->i_mmap)
#define try_lock_inode(inode) down_read_trylock(&(inode)->i_mmap)
#elif defined(READER)
#define lock_inode(inode) down_write(&(inode)->i_mmap)
#define unlock_inode(inode) up_write(&(inode)->i_mmap)
#define try_lock_inode(inode) down_read_trylock(&(inode)->i_mmap)
#elif defined(INTERRUPTIBLE)
#define lock_inode(inode)                                                                          \
  if (mutex_lock_interruptible(&(inode)->i_rwsem))                                                 \
  return
#define unlock_inode(inode) mutex_unlock(&(inode)->i_rwsem)
#define try_lock_inode(inode) (!mutex_lock_interruptible(&(inode)->i_rwsem))
#elif defined(POSIX)
#define lock_inode(inode) pthread_mutex_lock(&(inode)->i_mutex)
#define unlock_inode(inode) pthread_mutex_unlock(&(inode)->i_mutex)
#define try_lock_inode(inode) (pthread_mutex_trylock(&(inode)->i_mutex) == 0)
#else
#define lock_inode(inode) spin_lock(&(inode)->i_lock)
#define unlock_inode(inode) spin_unlock(&(inode)->i_lock)
#define try_lock_inode(inode) spin_trylock(&(inode)->i_lock)
#endif

void grab(struct inode *inode) {
  lock_inode(inode);
  WRITE_ONCE(inode->i_count, 1);
  smp_wmb(); // untested-note {{'grab' orders the store to 'inode.i_count' before the store to 'inode.i_state' with 'smp_wmb()'}}
  WRITE_ONCE(inode->i_state, FREEING);
  unlock_inode(inode);
}

int isolate(struct inode *inode) {
#ifdef UNTESTED
  (void)try_lock_inode(inode);
#else
  if (!try_lock_inode(inode))
    return 0;
#endif
  int count = 0;
  if (READ_ONCE(inode->i_state) & FREEING)
    count = READ_ONCE(inode->i_count); // untested-warning {{no barrier orders the load of 'inode.i_state' before the load of 'inode.i_count' in 'isolate'; with 'grab' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                          untested-note {{scenario 3}}
  unlock_inode(inode);
  return count;
}
