// Publishers that run only through a protocol's function-pointer field,
// whose callers (release.c) hold the table's lock, and readers that take it.
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

int size, generation;

void publish(int new_size) {
  CMM_STORE_SHARED(size, new_size);
  cmm_smp_wmb();
  CMM_STORE_SHARED(generation, generation + 1);
}

int read_size(int *out) {
  pthread_mutex_lock(&table_lock);
  int seen = CMM_LOAD_SHARED(generation);
  *out = seen ? CMM_LOAD_SHARED(size) : 0;
  pthread_mutex_unlock(&table_lock);
  return seen;
}

static int count, total;

static void count_one(int value) {
  CMM_STORE_SHARED(total, total + value);
  cmm_smp_wmb();
  CMM_STORE_SHARED(count, count + 1);
}

int read_count(int *out) {
  pthread_mutex_lock(&table_lock);
  int seen = CMM_LOAD_SHARED(count);
  *out = seen ? CMM_LOAD_SHARED(total) : 0;
  pthread_mutex_unlock(&table_lock);
  return seen;
}

struct proto {
  void (*release_cb)(int value);
  void (*on_change)(int value);
};

const struct proto table_proto = {.release_cb = publish, .on_change = count_one};
