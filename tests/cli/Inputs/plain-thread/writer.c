// Message passing: the writer orders its stores and starts both threads.
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;
void *reader(void *arg);

void *writer(void *arg) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
