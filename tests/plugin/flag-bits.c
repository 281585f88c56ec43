// Flag words: a load that tests some bits of a word never tells whether a
// store of other bits of it happened, so the two are no link of a pairing.
// The stopper sets STOP and then reads the futex; the pauser reads the
// futex and then waits for PAUSED, a bit the stopper never changes.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DCOMPOUND -Xclang -verify
// RUN: %barrierpair %s -DC11 -Xclang -verify
// RUN: %barrierpair %s -DSAME_BITS -Xclang -verify=same
// RUN: %barrierpair %s -DCOMPOUND -DSAME_BITS -Xclang -verify=same
// RUN: %barrierpair %s -DC11 -DSAME_BITS -Xclang -verify=same
// RUN: %barrierpair %s -DTWO_WRITERS -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DTWO_WRITERS -DSAME_WRITER_BITS -Xclang -verify=writers
// RUN: %barrierpair %s -DREADERS -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DREADERS -DWRITER_SETS_WAITED -Xclang -verify=readers
// expected-no-diagnostics
#include <pthread.h>
#include <stdatomic.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>

#define STOP (1U << 1)
#define PAUSED (1U << 3)
#ifdef SAME_BITS
#define WAITED_FOR STOP
#else
#define WAITED_FOR PAUSED
#endif

struct queue {
#ifdef C11
  _Atomic unsigned long flags;
#else
  unsigned long flags;
#endif
  int futex;
};
struct queue q;

void stopper(void) {
#if defined(C11)
  atomic_fetch_or_explicit(&q.flags, STOP, memory_order_relaxed);
#elif defined(COMPOUND)
  q.flags |= STOP;
#else
  uatomic_or(&q.flags, STOP);
#endif
  cmm_smp_mb(); // same-note {{'stopper' orders the store to 'q.flags' before the load of 'q.futex' with 'cmm_smp_mb()'}}
  if (uatomic_read(&q.futex) == -1)
    uatomic_set(&q.futex, 0);
}

void pauser(void) {
  if (uatomic_read(&q.futex) == -1)
    uatomic_set(&q.futex, 0);
#ifdef C11
  // same-warning@+2 {{no barrier orders the store to 'q.futex' before the load of 'q.flags' in 'pauser'; with 'stopper' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}}
  // same-note@+1 {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0: 'pauser' could read the old 'q.flags' and 'stopper' the old 'q.futex'}}
  while (!(atomic_load_explicit(&q.flags, memory_order_relaxed) & WAITED_FOR))
    ;
#else
  // same-warning@+2 {{no barrier orders the store to 'q.futex' before the load of 'q.flags' in 'pauser'; with 'stopper' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}}
  // same-note@+1 {{scenario 10 (Dekker) forbids r2 == 0 && r4 == 0: 'pauser' could read the old 'q.flags' and 'stopper' the old 'q.futex'}}
  while (!(uatomic_read(&q.flags) & WAITED_FOR))
    ;
#endif
}

// Two writers of other bits of one word (an atomic `uatomic_or()`, a plain
// `&=` such as liburcu's workqueue makes once it has joined its worker):
// each keeps the other's bits, so whichever comes first the word ends with
// both, and no outcome tells their order (with the same bit,
// -DSAME_WRITER_BITS, it is the article's two writers).
#if defined(TWO_WRITERS)
#ifdef SAME_WRITER_BITS
#define LATE_BIT STOP
#else
#define LATE_BIT PAUSED
#endif
int epoch;

static void *first_writer(void *unused) {
  (void)unused;
  uatomic_or(&q.flags, STOP);
  cmm_smp_wmb(); // writers-note {{'first_writer' orders the store to 'q.flags' before the store to 'epoch' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(epoch, 1);
  return NULL;
}

static void *second_writer(void *unused) {
  (void)unused;
  CMM_STORE_SHARED(epoch, 2);
  q.flags &= ~LATE_BIT; // writers-warning {{no barrier orders the store to 'epoch' before the store to 'q.flags' in 'second_writer'; with 'first_writer' this is scenario 15 (two writers), which needs cmm_smp_wmb() here}} \
                           writers-note {{scenario 15 (two writers) forbids}}
  return NULL;
}

void start_writers(void) {
  pthread_t threads[2];
  pthread_create(&threads[0], NULL, first_writer, NULL);
  pthread_create(&threads[1], NULL, second_writer, NULL);
}
#endif

// Two readers of the word, each testing its own bit, disagree on the order
// of two stores only if some third function changes both bits they test
// (IRIW, scenario 0). The only writer of the word sets STOP: neither
// reader's bit (with -DWRITER_SETS_WAITED, it sets the bits both test).
#if defined(READERS)
#define RT (1U << 0)
#ifdef WRITER_SETS_WAITED
#define WRITTEN (RT | PAUSED)
#else
#define WRITTEN STOP
#endif
static void *flag_writer(void *unused) {
  (void)unused;
  uatomic_or(&q.flags, WRITTEN);
  return NULL;
}

static void *futex_writer(void *unused) {
  (void)unused;
  uatomic_set(&q.futex, 1);
  return NULL;
}

static void *ordered_reader(void *unused) {
  (void)unused;
  int futex = uatomic_read(&q.futex);
  cmm_smp_mb(); // readers-note {{'ordered_reader' orders the load of 'q.futex' before the load of 'q.flags' with 'cmm_smp_mb()'}}
  return (void *)(long)(futex + (int)(uatomic_read(&q.flags) & PAUSED));
}

static void *unordered_reader(void *unused) {
  (void)unused;
  int rt = (int)(uatomic_read(&q.flags) & RT);
  return (void *)(long)(rt + uatomic_read(&q.futex)); // readers-warning {{no barrier orders the load of 'q.flags' before the load of 'q.futex' in 'unordered_reader'; with 'ordered_reader' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}} \
                                                         readers-note {{scenario 0 (IRIW) forbids}}
}

void start_readers(void) {
  pthread_t threads[4];
  pthread_create(&threads[0], NULL, flag_writer, NULL);
  pthread_create(&threads[1], NULL, futex_writer, NULL);
  pthread_create(&threads[2], NULL, ordered_reader, NULL);
  pthread_create(&threads[3], NULL, unordered_reader, NULL);
}
#endif
