// Memory no other thread can see is not a shared object: a local structure,
// a structure the function has just allocated and hands over only through
// pthread_create(), and the C library's globals (stderr). A structure the
// function publishes through a shared pointer is the payload of a message,
// and its initialisation still pairs (examples/rcu-publish).
//
// RUN: %barrierpair %s -Xclang -verify
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/arch.h>
#include <urcu/system.h>

struct worker {
  int flags;
  int count;
};

static void *work(void *argument) {
  struct worker *worker = argument;
  int count = CMM_LOAD_SHARED(worker->count);
  cmm_smp_rmb();
  return (void *)(long)(count + CMM_LOAD_SHARED(worker->flags));
}

// Initialised before pthread_create(), which orders it: no pair with work().
struct worker *start(pthread_t *thread) {
  struct worker *worker = malloc(sizeof(*worker));
  if (!worker)
    abort();
  memset(worker, 0, sizeof(*worker));
  worker->flags = 1;
  worker->count = 2;
  pthread_create(thread, NULL, work, worker);
  return worker;
}

// A local structure is never shared.
int local(void) {
  struct worker copy;
  copy.flags = 1;
  copy.count = 2;
  fprintf(stderr, "%d\n", copy.flags);
  return copy.count;
}

struct worker *published;

// Published through a shared pointer without a barrier: the fields are the
// message and the pointer the flag.
void publish(void) {
  struct worker *worker = malloc(sizeof(*worker));
  if (!worker)
    abort();
  worker->flags = 1;
  CMM_STORE_SHARED(published, worker); // expected-warning {{no barrier orders the store to 'worker.flags' before the store to 'published' in 'publish'}} \
                                          expected-note {{scenario 12}}
}

int consume(void) {
  struct worker *worker = CMM_LOAD_SHARED(published);
  cmm_smp_rmb(); // expected-note {{'consume' orders the load of 'published' before the load of 'worker.flags' with 'cmm_smp_rmb()'}}
  return worker ? worker->flags : 0;
}
