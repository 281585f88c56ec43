// Kernel-style comments beside barriers, one for each way the analysis can
// part from the partner a comment names (check --comments).
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready, head, tail, seen, count, first, second;
int guarded_data, guarded_flag;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void publish(void) {
  CMM_STORE_SHARED(message, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in consume() */
  CMM_STORE_SHARED(ready, 1);
}

int consume(void) {
  int r = CMM_LOAD_SHARED(ready);
  cmm_smp_rmb(); /* Pairs with cmm_smp_wmb() in a_library_function() */
  return r + CMM_LOAD_SHARED(message);
}

int plain_helper(void) { return 1; }

void advance(void) {
  CMM_STORE_SHARED(head, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in plain_helper() */
  CMM_STORE_SHARED(tail, 1);
}

void kick(void) {
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in consume() */
  CMM_STORE_SHARED(ready, 2);
}

int watch(void) {
  int r = CMM_LOAD_SHARED(seen);
  cmm_smp_rmb(); /* Pairs with cmm_smp_wmb() in kick() */
  return r + CMM_LOAD_SHARED(count);
}

int look_back(void) {
  int r = CMM_LOAD_SHARED(seen);
  cmm_smp_rmb(); /* Pairs with cmm_smp_wmb() in advance() */
  return r + CMM_LOAD_SHARED(count);
}

void count_up(void) {
  CMM_STORE_SHARED(count, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in look_at_tail() */
  CMM_STORE_SHARED(first, 1);
}

int look_at_tail(void) {
  int r = CMM_LOAD_SHARED(first);
  cmm_smp_rmb(); /* Pairs with cmm_smp_wmb() in count_up() */
  return r + CMM_LOAD_SHARED(second);
}

void guarded_write(void) {
  pthread_mutex_lock(&lock);
  CMM_STORE_SHARED(guarded_data, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in guarded_read() */
  CMM_STORE_SHARED(guarded_flag, 1);
  pthread_mutex_unlock(&lock);
}

int guarded_read(void) {
  pthread_mutex_lock(&lock);
  int r = CMM_LOAD_SHARED(guarded_flag);
  cmm_smp_rmb(); /* Pairs with cmm_smp_wmb() in guarded_write() */
  r += CMM_LOAD_SHARED(guarded_data);
  pthread_mutex_unlock(&lock);
  return r;
}

void own_words(void) {
  CMM_STORE_SHARED(second, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in own_words() */
  CMM_STORE_SHARED(head, 2);
}
