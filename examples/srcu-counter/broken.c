/* A per-thread counter read by an updater, the way SRCU and liburcu's
 * grace periods work. Each reader owns a counter that is odd while it is
 * inside a read-side critical section. The updater publishes a new item,
 * waits until no reader that started before the publication is still
 * inside, and only then retires the old item. Two pairs of the menagerie:
 *
 *   - entering is Dekker (scenario 10): the reader stores its counter and
 *     then loads the pointer; the updater stores the pointer and then loads
 *     the counters. A store followed by a load needs cmm_smp_mb() on both
 *     sides, or the reader could take the old item while the updater sees
 *     it outside and retires that item under it;
 *   - leaving is inverse Dekker (scenario 5): the reader loads the item and
 *     then stores its counter; the updater loads the counter and then
 *     stores into the old item. cmm_smp_mb() again, on both sides.
 *
 * The program runs two readers against an updater that alternates between
 * two items and counts the reads that found a retired item.
 *
 * BROKEN: the reader announces itself without a barrier, as if its counter
 * store were visible at once. On every CPU with a store buffer (x86
 * included) the store can wait there while the reader already loads the
 * pointer: the updater sees the reader outside, ends the grace period, and
 * retires the item the reader is about to use. The analyzer reports the
 * missing cmm_smp_mb() and, because rcu_dereference() only orders loads,
 * also that the counter store is not ordered before the read of the item.
 * The window is a few nanoseconds wide, so a run may well count 0.
 *
 * Build and run: cc -O2 -pthread correct.c && ./a.out */
#define _LGPL_SOURCE /* rcu_dereference() and rcu_assign_pointer() as macros */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>
#include <urcu/system.h>

#define READERS 2
#define READS 1000000
#define UPDATES 100000

struct reader_state {
  unsigned long ctr; /* odd while inside a read-side critical section */
} __attribute__((aligned(64)));

struct item {
  unsigned long value; /* 0 once retired */
};

static struct reader_state readers[READERS];
static struct item items[2];
static struct item *current_item;

static void *reader(void *arg) {
  struct reader_state *self = &readers[(intptr_t)arg];
  unsigned long ctr = 0, retired_reads = 0;
  for (int i = 0; i < READS; i++) {
    CMM_STORE_SHARED(self->ctr, ++ctr); /* enter: odd */
    struct item *item = rcu_dereference(current_item);
    if (item)
      retired_reads += CMM_LOAD_SHARED(item->value) == 0;
    cmm_smp_mb();
    CMM_STORE_SHARED(self->ctr, ++ctr); /* leave: even */
  }
  return (void *)(uintptr_t)retired_reads;
}

static void *updater(void *unused) {
  struct item *old = NULL;
  (void)unused;
  for (unsigned long i = 1; i <= UPDATES; i++) {
    struct item *item = &items[i % 2];
    CMM_STORE_SHARED(item->value, i);
    rcu_assign_pointer(current_item, item);
    /* Grace period: wait until every reader that may still use `old` has
     * left its critical section. */
    cmm_smp_mb();
    for (int r = 0; r < READERS; r++) {
      unsigned long snapshot = CMM_LOAD_SHARED(readers[r].ctr);
      if (snapshot & 1)
        while (CMM_LOAD_SHARED(readers[r].ctr) == snapshot)
          caa_cpu_relax();
    }
    cmm_smp_mb();
    if (old)
      CMM_STORE_SHARED(old->value, 0); /* retire */
    old = item;
  }
  return NULL;
}

int main(void) {
  pthread_t updater_thread, reader_threads[READERS];
  unsigned long retired_reads = 0;
  for (intptr_t r = 0; r < READERS; r++)
    pthread_create(&reader_threads[r], NULL, reader, (void *)r);
  pthread_create(&updater_thread, NULL, updater, NULL);
  pthread_join(updater_thread, NULL);
  for (int r = 0; r < READERS; r++) {
    void *result;
    pthread_join(reader_threads[r], &result);
    retired_reads += (uintptr_t)result;
  }
  printf("srcu-counter: readers found a retired item %lu times in %d reads\n", retired_reads,
         READERS * READS);
  return retired_reads != 0;
}
