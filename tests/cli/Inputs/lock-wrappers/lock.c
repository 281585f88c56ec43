// The program's big lock, taken and released through functions of their
// own (the kernel's rtnl_lock() and rtnl_unlock()).
#include <pthread.h>

static pthread_mutex_t big_mutex = PTHREAD_MUTEX_INITIALIZER;

void big_lock(void) { pthread_mutex_lock(&big_mutex); }

void big_unlock(void) { pthread_mutex_unlock(&big_mutex); }

// Not a wrapper: it takes the lock and gives it back.
void big_locked_noop(void) {
  pthread_mutex_lock(&big_mutex);
  pthread_mutex_unlock(&big_mutex);
}

// Not a wrapper either: it states that its caller holds the lock (the
// kernel's lockdep_assert_held(), which compiles to nothing without
// lockdep), and takes nothing.
#define lockdep_assert_held(l)                                                                     \
  do {                                                                                             \
    (void)(l);                                                                                     \
  } while (0)

void big_assert_held(void) { lockdep_assert_held(&big_mutex); }
