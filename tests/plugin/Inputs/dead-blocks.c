/* A critical section with a `do { } while (0)` macro in it: clang's CFG
 * gives the do-while a loop-back block that control never reaches. */
#include <pthread.h>
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>

struct queue {
  void **slots;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread struct queue own;
static unsigned long released;
static int stopping;

#define COUNT(counter)                                                         \
  do {                                                                         \
    (counter)++;                                                               \
  } while (0)

void release_own(void) {
  pthread_mutex_lock(&lock);
  COUNT(released);
  free(own.slots);
  own.slots = NULL;
  pthread_mutex_unlock(&lock);
  CMM_STORE_SHARED(stopping, 1);
  cmm_smp_mb();
}

/* A helper whose every return is a constant that the caller tests: its
 * returns go straight to the caller's branches, and its exit is never
 * entered. */
static int stopped(void) {
  if (!CMM_LOAD_SHARED(stopping))
    return 0;
  return 1;
}

void release_if_stopped(void) {
  pthread_mutex_lock(&lock);
  if (stopped())
    own.slots = NULL;
  pthread_mutex_unlock(&lock);
}
