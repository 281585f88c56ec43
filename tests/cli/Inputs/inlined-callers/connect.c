// connect_locked() uses barriers, so its unit's call lowers its code into
// do_connect(); it is also lowered on its own, as every external function
// is, and runs there under the locks held at each of its calls.
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

pthread_mutex_t socket_lock = PTHREAD_MUTEX_INITIALIZER;
int route, mark;

void connect_locked(int new_mark) {
  CMM_STORE_SHARED(mark, new_mark);
  cmm_smp_wmb();
  CMM_STORE_SHARED(route, 1);
}

void do_connect(int new_mark) {
  pthread_mutex_lock(&socket_lock);
  connect_locked(new_mark);
  pthread_mutex_unlock(&socket_lock);
}
