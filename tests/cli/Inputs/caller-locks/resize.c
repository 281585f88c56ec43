// The callers of table.c's publishers.
#include <pthread.h>

extern pthread_mutex_t table_lock;
void publish_one(int size);
void publish_two(int size);
void publish_three(int size);

void table_grow(void) {
  pthread_mutex_lock(&table_lock);
  publish_one(64);
  publish_two(64);
  publish_three(64);
  pthread_mutex_unlock(&table_lock);
}

void table_shrink(void) {
  pthread_mutex_lock(&table_lock);
  publish_one(8);
  publish_three(8);
  pthread_mutex_unlock(&table_lock);
  publish_two(8);
}

void (*on_resize)(int size) = publish_three;
