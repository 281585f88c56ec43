/* Message passing (scenario 3 of the menagerie): the writer fills in a
 * message and then raises a flag; the reader waits for the flag and then
 * reads the message. Each side needs its barrier: the writer's wmb keeps the
 * message ahead of the flag, the reader's rmb keeps the flag ahead of the
 * message.
 *
 * BROKEN: the reader has no barrier, so it can see the flag and still read
 * the old message. */
#include <pthread.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/system.h>

static int message;
static int ready;

static void *writer(void *unused) {
  (void)unused;
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
  return NULL;
}

static void *reader(void *seen) {
  while (!CMM_LOAD_SHARED(ready))
    caa_cpu_relax();
  *(int *)seen = CMM_LOAD_SHARED(message);
  return NULL;
}

int main(void) {
  pthread_t writer_thread, reader_thread;
  int seen = 0;
  pthread_create(&reader_thread, NULL, reader, &seen);
  pthread_create(&writer_thread, NULL, writer, NULL);
  pthread_join(writer_thread, NULL);
  pthread_join(reader_thread, NULL);
  printf("message-passing: the reader saw message %d\n", seen);
  return seen == 42 ? 0 : 1;
}
