// The only calls of what the protocol's fields hold: `release_cb` always
// under the table's lock; `on_change` once without it (-DUNLOCKED), or
// handed on as a value (-DESCAPES).
#include <pthread.h>

extern pthread_mutex_t table_lock;

struct proto {
  void (*release_cb)(int value);
  void (*on_change)(int value);
};

void release(const struct proto *proto, int value) {
  pthread_mutex_lock(&table_lock);
  if (proto->release_cb)
    proto->release_cb(value);
  proto->on_change(value);
  pthread_mutex_unlock(&table_lock);
#ifdef UNLOCKED
  proto->on_change(value);
#endif
}

#ifdef ESCAPES
void (*saved_change)(int value);

void save(const struct proto *proto) {
  saved_change = proto->on_change;
}
#endif
