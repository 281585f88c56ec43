// Publishers whose callers, in resize.c, hold the table's lock, and readers
// that take it: a reader never runs with a publisher, and needs no barrier,
// where every call of the publisher holds the lock.
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

// Every call holds the lock.
int size_one, generation_one;

void publish_one(int size) {
  CMM_STORE_SHARED(size_one, size);
  cmm_smp_wmb();
  CMM_STORE_SHARED(generation_one, generation_one + 1);
}

int read_one(int *size) {
  pthread_mutex_lock(&table_lock);
  int generation = CMM_LOAD_SHARED(generation_one);
  *size = generation ? CMM_LOAD_SHARED(size_one) : 0;
  pthread_mutex_unlock(&table_lock);
  return generation;
}

// One call does not.
int size_two, generation_two;

void publish_two(int size) {
  CMM_STORE_SHARED(size_two, size);
  cmm_smp_wmb();
  CMM_STORE_SHARED(generation_two, generation_two + 1);
}

int read_two(int *size) {
  pthread_mutex_lock(&table_lock);
  int generation = CMM_LOAD_SHARED(generation_two);
  *size = generation ? CMM_LOAD_SHARED(size_two) : 0;
  pthread_mutex_unlock(&table_lock);
  return generation;
}

// Every direct call holds the lock, but resize.c also hands its address on.
int size_three, generation_three;

void publish_three(int size) {
  CMM_STORE_SHARED(size_three, size);
  cmm_smp_wmb();
  CMM_STORE_SHARED(generation_three, generation_three + 1);
}

int read_three(int *size) {
  pthread_mutex_lock(&table_lock);
  int generation = CMM_LOAD_SHARED(generation_three);
  *size = generation ? CMM_LOAD_SHARED(size_three) : 0;
  pthread_mutex_unlock(&table_lock);
  return generation;
}
