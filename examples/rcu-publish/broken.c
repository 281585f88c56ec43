/* RCU-style pointer publication (scenario 12, message passing through a
 * pointer): the publisher initialises a structure and then publishes a
 * pointer to it; a reader loads the pointer and then reads the structure
 * through it. rcu_assign_pointer() is a release store (a cmm_smp_wmb()
 * before the store) and rcu_dereference() a load that orders the accesses
 * through the pointer it returns, so a reader that sees the pointer sees
 * the initialised fields.
 *
 * Publication only: freeing an old version while readers may still use it
 * needs a grace period (liburcu's synchronize_rcu(); see the srcu-counter
 * example for how one works). Here the configuration is freed after both
 * threads are joined.
 *
 * BROKEN: the publisher stores the pointer with CMM_STORE_SHARED(), which
 * marks the access but orders nothing: a reader can get the pointer before
 * the fields behind it are written, and read garbage. x86 keeps stores in
 * order, so it does not show here; ARM and POWER can.
 *
 * Build and run: cc -O2 -pthread correct.c && ./a.out */
#define _LGPL_SOURCE /* rcu_dereference() and rcu_assign_pointer() as macros */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>
#include <urcu/system.h>

struct config {
  int port;
  int timeout;
};

static struct config *current_config;

static void *publisher(void *unused) {
  struct config *config = malloc(sizeof(*config));
  (void)unused;
  if (!config)
    abort();
  config->port = 8080; /* not yet visible to anyone: plain stores */
  config->timeout = 30;
  CMM_STORE_SHARED(current_config, config);
  return config;
}

static void *reader(void *result) {
  struct config *config;
  while (!(config = rcu_dereference(current_config)))
    caa_cpu_relax();
  *(int *)result = config->port == 8080 && config->timeout == 30;
  return NULL;
}

int main(void) {
  pthread_t publisher_thread, reader_thread;
  int initialised = 0;
  void *config;
  pthread_create(&reader_thread, NULL, reader, &initialised);
  pthread_create(&publisher_thread, NULL, publisher, NULL);
  pthread_join(publisher_thread, &config);
  pthread_join(reader_thread, NULL);
  free(config);
  printf("rcu-publish: the reader saw %s configuration\n",
         initialised ? "an initialised" : "an UNINITIALISED");
  return !initialised;
}
