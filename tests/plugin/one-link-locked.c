// A pairing one of whose links is two accesses inside critical sections of
// one lock cannot show its row's outcome: the sections run one after the
// other, and the unlock that ends the first (a release) orders everything
// its side did before it before everything the other side does after its
// lock (an acquire). The reader below checks the generation before it takes
// the lock, as blk-iocost's ioc_rqos_merge() reads its period's seqcount
// before ioc->lock, and reads the period under the lock the writer stores
// it under: whichever section runs first, the message cannot arrive
// without its payload. Read outside the lock, the period is message
// passing with no read barrier.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DUNLOCKED_READER -Xclang -verify=unlocked
// expected-no-diagnostics
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>

pthread_mutex_t period_lock = PTHREAD_MUTEX_INITIALIZER;
int period, generation;

void set_period(int value) {
  pthread_mutex_lock(&period_lock);
  CMM_STORE_SHARED(period, value);
  cmm_smp_wmb(); // unlocked-note {{'set_period' orders the store to 'period' before the store to 'generation' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(generation, value);
  pthread_mutex_unlock(&period_lock);
}

int read_period(void) {
  int seen = CMM_LOAD_SHARED(generation);
  if (!seen)
    return 0;
#ifndef UNLOCKED_READER
  pthread_mutex_lock(&period_lock);
#endif
  int current = CMM_LOAD_SHARED(period); // unlocked-warning {{no barrier orders the load of 'generation' before the load of 'period' in 'read_period'; with 'set_period' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                            unlocked-note {{scenario 3 (message passing) forbids}}
#ifndef UNLOCKED_READER
  pthread_mutex_unlock(&period_lock);
#endif
  return seen + current;
}
