// What a function does before it starts a thread, the thread sees done, and
// what it does after joining one, the thread did before: such accesses
// neither pair nor race with the thread's. A thread-local
// variable is each thread's own: two threads' accesses to their own
// instances are to different objects, while another thread reaches an
// instance through a pointer.
//
// RUN: %barrierpair %s -Xclang -verify -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DSHARED -Xclang -verify=expected,shared -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DNO_JOIN -Xclang -verify=expected,nojoin -Xclang -verify-ignore-unexpected=note
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int config, config_ready, result, result_ready;

static void *worker(void *unused) {
  (void)unused;
  int seen = config; // quiet: set before the thread started
  if (config_ready)  // quiet, likewise
    seen++;
  CMM_STORE_SHARED(result, seen);
  cmm_smp_wmb();
  CMM_STORE_SHARED(result_ready, 1);
  return NULL;
}

int start(void) {
  pthread_t thread;
  config = 42;
  config_ready = 1;
  pthread_create(&thread, NULL, worker, NULL);
  // After the start the thread runs concurrently: this read of the result
  // pairs with the worker, and needs its barrier.
  while (!CMM_LOAD_SHARED(result_ready))
    caa_cpu_relax();
  return CMM_LOAD_SHARED(result); // expected-warning {{no barrier orders the load of 'result_ready' before the load of 'result' in 'start'; with 'worker' this is scenario 3 (message passing)}}
}

// What a thread did, the function that joined it sees done: reading the
// worker's results after pthread_join() pairs with nothing (with -DNO_JOIN
// the reads race with the worker and need their barrier).
int out_a, out_b;

static void *producer(void *unused) {
  (void)unused;
  CMM_STORE_SHARED(out_a, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(out_b, 1);
  return NULL;
}

int collect(void) {
  pthread_t threads[2];
  pthread_create(&threads[0], NULL, producer, NULL);
#ifndef NO_JOIN
  pthread_join(threads[0], NULL);
#endif
  int b = CMM_LOAD_SHARED(out_b);
  return b ? CMM_LOAD_SHARED(out_a) : 0; // nojoin-warning {{no barrier orders the load of 'out_b' before the load of 'out_a' in 'collect'}}
}

// A handle kept in a structure (liburcu's workqueue keeps its worker's in
// `workqueue->tid`): the join of that field waits for the thread started
// into it.
struct pool {
  pthread_t tid;
  int done_a, done_b;
};

static void *pool_worker(void *arg) {
  struct pool *pool = arg;
  CMM_STORE_SHARED(pool->done_a, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(pool->done_b, 1);
  return NULL;
}

void pool_start(struct pool *pool) {
  pthread_create(&pool->tid, NULL, pool_worker, pool);
}

int pool_stop(struct pool *pool) {
#ifndef NO_JOIN
  pthread_join(pool->tid, NULL);
#endif
  int b = CMM_LOAD_SHARED(pool->done_b);
  return b ? CMM_LOAD_SHARED(pool->done_a) : 0; // nojoin-warning {{no barrier orders the load of 'pool.done_b' before the load of 'pool.done_a' in 'pool_stop'}}
}

// Per-thread state, as liburcu keeps its readers': each thread's own
// instance. Two threads' accesses to their own instances do not pair (with
// -DSHARED the variable is one object, and the pair is message passing with
// the reader's barrier missing); another thread reaching an instance through
// a pointer does pair with its owner.
struct reader {
  unsigned long ctr;
};
#ifdef SHARED
static struct reader me;
#else
static __thread struct reader me;
#endif
struct reader *registry[16];
unsigned long gp_ctr;
int published;

void own_writer(void) {
  CMM_STORE_SHARED(me.ctr, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(published, 1);
}

unsigned long own_reader(void) {
  if (!CMM_LOAD_SHARED(published))
    return 0;
  return CMM_LOAD_SHARED(me.ctr); // shared-warning {{no barrier orders the load of 'published' before the load of 'me.ctr' in 'own_reader'}}
}

void read_lock(void) {
  me.ctr = 1; // expected-warning-re {{the store to '{{(reader|me)}}.ctr' in 'read_lock' is not marked, but it races with the load of 'reader.ctr' in 'grace_period'}}
  cmm_smp_mb();
  (void)CMM_LOAD_SHARED(gp_ctr);
}

int grace_period(int index) {
  CMM_STORE_SHARED(gp_ctr, CMM_LOAD_SHARED(gp_ctr) + 1);
  cmm_smp_mb();
  return CMM_LOAD_SHARED(registry[index]->ctr) != 0;
}
