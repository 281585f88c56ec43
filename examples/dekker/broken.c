/* Dekker's mutual exclusion (scenario 10 of the menagerie): each thread
 * raises its own flag and then checks the other's; it enters the critical
 * section only if the other's flag is down. Only a full barrier orders a
 * store before a later load: with cmm_smp_mb() on both sides, at most one
 * thread can find the other's flag down.
 *
 * The program tries it a million times. Each round has its own pair of
 * flags (a flag is "up" when it holds the current batch number), and both
 * threads start each batch of rounds together, so they really do race.
 * It prints in how many rounds both threads entered.
 *
 * BROKEN: thread 0 uses a write barrier, which does not order its store
 * before its load, and thread 1 has no barrier at all. Both threads can read
 * the other's flag as still down and enter together. x86 shows it: its
 * store buffer lets a load pass an earlier store, and cmm_smp_wmb() is only
 * a compiler barrier there: with two or more CPUs, expect thousands of
 * rounds out of a million (it needs the threads on different CPUs).
 *
 * Build and run: cc -O2 -pthread broken.c && ./a.out */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define ROUNDS_PER_BATCH 1024
#define BATCHES 1000
#define STRIDE 16 /* one cache line per round's flag */

static int flag0[ROUNDS_PER_BATCH * STRIDE];
static int flag1[ROUNDS_PER_BATCH * STRIDE];
static unsigned long arrived;

/* Both threads start each batch together. A spinning barrier, because a
 * thread woken from pthread_barrier_wait() would arrive a whole batch late. */
static void start_batch(unsigned long batch) {
  uatomic_inc(&arrived);
  while (uatomic_read(&arrived) < 2 * batch)
    caa_cpu_relax();
}

static void *thread0(void *arg) {
  unsigned char *entered = arg; /* one byte per round, read by main() */
  for (int batch = 1; batch <= BATCHES; batch++) {
    start_batch(batch);
    for (int round = 0; round < ROUNDS_PER_BATCH; round++) {
      CMM_STORE_SHARED(flag0[round * STRIDE], batch);
      cmm_smp_wmb();
      *entered++ = CMM_LOAD_SHARED(flag1[round * STRIDE]) != batch;
    }
  }
  return NULL;
}

static void *thread1(void *arg) {
  unsigned char *entered = arg;
  for (int batch = 1; batch <= BATCHES; batch++) {
    start_batch(batch);
    for (int round = 0; round < ROUNDS_PER_BATCH; round++) {
      CMM_STORE_SHARED(flag1[round * STRIDE], batch);
      *entered++ = CMM_LOAD_SHARED(flag0[round * STRIDE]) != batch;
    }
  }
  return NULL;
}

int main(void) {
  const size_t rounds = (size_t)ROUNDS_PER_BATCH * BATCHES;
  unsigned char *entered0 = calloc(rounds, 1);
  unsigned char *entered1 = calloc(rounds, 1);
  pthread_t threads[2];
  if (!entered0 || !entered1)
    return 2;
  pthread_create(&threads[0], NULL, thread0, entered0);
  pthread_create(&threads[1], NULL, thread1, entered1);
  pthread_join(threads[0], NULL);
  pthread_join(threads[1], NULL);
  size_t both = 0;
  for (size_t i = 0; i < rounds; i++)
    both += entered0[i] && entered1[i];
  printf("dekker: both threads entered the critical section in %zu of %zu rounds\n", both, rounds);
  free(entered0);
  free(entered1);
  return both != 0;
}
