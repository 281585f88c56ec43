// The only calls of what the protocol's fields hold: `release_cb` always
// under the table's lock; `on_change` once without it (-DUNLOCKED), or
// kept as a value (-DESCAPES), or handed to a function that calls it
// (-DHANDED). A function that only tests whether the field is set
// (`implemented()`) does neither.
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

static char implemented(const void *method) {
  return method ? 'y' : 'n';
}

char describe(const struct proto *proto) {
  return implemented(proto->on_change);
}

#ifdef HANDED
static void run(void (*method)(int value)) {
  method(1);
}

void later(const struct proto *proto) {
  run(proto->on_change);
}
#endif

#ifdef ESCAPES
void (*saved_change)(int value);

void save(const struct proto *proto) {
  saved_change = proto->on_change;
}
#endif
