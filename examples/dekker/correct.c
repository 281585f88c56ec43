/* Dekker's mutual exclusion (scenario 10 of the menagerie): each thread
 * raises its own flag and then checks the other's. Only a full barrier
 * orders a store before a later load: with it, at most one thread can find
 * the other's flag down. */
#include <pthread.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/system.h>

static int flag0;
static int flag1;

static void *thread0(void *entered) {
  CMM_STORE_SHARED(flag0, 1);
  cmm_smp_mb();
  *(int *)entered = !CMM_LOAD_SHARED(flag1);
  return NULL;
}

static void *thread1(void *entered) {
  CMM_STORE_SHARED(flag1, 1);
  cmm_smp_mb();
  *(int *)entered = !CMM_LOAD_SHARED(flag0);
  return NULL;
}

int main(void) {
  pthread_t threads[2];
  int entered[2] = {0, 0};
  pthread_create(&threads[0], NULL, thread0, &entered[0]);
  pthread_create(&threads[1], NULL, thread1, &entered[1]);
  pthread_join(threads[0], NULL);
  pthread_join(threads[1], NULL);
  printf("thread 0 %s, thread 1 %s the critical section\n", entered[0] ? "entered" : "skipped",
         entered[1] ? "entered" : "skipped");
  return entered[0] && entered[1];
}
