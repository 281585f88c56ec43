// A reader under the socket's lock, and (-DUNLOCKED) a call of
// connect_locked() that holds no lock.
#include <pthread.h>
#include <urcu/system.h>

extern pthread_mutex_t socket_lock;
extern int route, mark;
void connect_locked(int new_mark);

int read_mark(void) {
  pthread_mutex_lock(&socket_lock);
  int routed = CMM_LOAD_SHARED(route);
  int seen = routed ? CMM_LOAD_SHARED(mark) : 0;
  pthread_mutex_unlock(&socket_lock);
  return seen;
}

#ifdef UNLOCKED
void reset(void) {
  connect_locked(0);
}
#endif
