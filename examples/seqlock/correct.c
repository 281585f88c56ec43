/* Seqlock: one writer updates a pair of values that readers must see
 * together, without making readers write anything. The writer makes the
 * sequence count odd, updates the data, and makes it even again; a reader
 * reads the count, the data, and the count again, and retries if the count
 * was odd or changed. Two message-passing pairs (scenarios 3 and 12) hold
 * it together:
 *
 *   - writer: count (odd), cmm_smp_wmb(), data;
 *     reader: data, cmm_smp_rmb(), count again;
 *   - writer: data, cmm_smp_wmb(), count (even);
 *     reader: count, cmm_smp_rmb(), data.
 *
 * The data accesses race with the writer by design, so they are marked
 * (CMM_LOAD_SHARED/CMM_STORE_SHARED). The program counts the reads that
 * returned two different values (0 here).
 *
 * Build and run: cc -O2 -pthread correct.c && ./a.out */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/system.h>

#define UPDATES 1000000
#define READS 1000000

static unsigned long sequence; /* odd while an update is in progress */
static unsigned long low, high; /* the protected pair: always equal */

static void write_pair(unsigned long value) {
  unsigned long seq = sequence; /* only the writer stores it */
  CMM_STORE_SHARED(sequence, seq + 1);
  cmm_smp_wmb(); /* the count is odd before the data changes */
  CMM_STORE_SHARED(low, value);
  CMM_STORE_SHARED(high, value);
  cmm_smp_wmb(); /* the data is complete before the count is even */
  CMM_STORE_SHARED(sequence, seq + 2);
}

/* One attempt: false if it raced with the writer. */
static bool try_read_pair(unsigned long *a, unsigned long *b) {
  unsigned long seq = CMM_LOAD_SHARED(sequence);
  if (seq & 1)
    return false;
  cmm_smp_rmb(); /* read the count before the data */
  *a = CMM_LOAD_SHARED(low);
  *b = CMM_LOAD_SHARED(high);
  cmm_smp_rmb(); /* read the data before the count again */
  return CMM_LOAD_SHARED(sequence) == seq;
}

static void *writer(void *unused) {
  (void)unused;
  for (unsigned long i = 1; i <= UPDATES; i++)
    write_pair(i);
  return NULL;
}

static void *reader(void *result) {
  unsigned long torn = 0, a, b;
  for (int i = 0; i < READS; i++) {
    while (!try_read_pair(&a, &b))
      caa_cpu_relax();
    torn += a != b;
  }
  *(unsigned long *)result = torn;
  return NULL;
}

int main(void) {
  pthread_t writer_thread, reader_thread;
  unsigned long torn = 0;
  pthread_create(&reader_thread, NULL, reader, &torn);
  pthread_create(&writer_thread, NULL, writer, NULL);
  pthread_join(writer_thread, NULL);
  pthread_join(reader_thread, NULL);
  printf("seqlock: %lu of %d reads returned a torn pair\n", torn, READS);
  return torn != 0;
}
