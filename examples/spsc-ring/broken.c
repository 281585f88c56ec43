/* Single-producer/single-consumer ring buffer. The producer fills a slot and
 * then moves `head`; the consumer reads the slot and then moves `tail`. Two
 * pairs of the menagerie meet here:
 *
 *   - publishing a slot is message passing (scenario 12): the producer's
 *     cmm_smp_wmb() between the slot and `head` pairs with the consumer's
 *     cmm_smp_rmb() between `head` and the slot;
 *   - handing a slot back is inverse Dekker (scenario 5): the consumer reads
 *     the slot and then stores `tail`, the producer reads `tail` and then
 *     stores into the slot. A load followed by a store needs cmm_smp_mb() on
 *     both sides, or the producer could overwrite a slot the consumer is
 *     still reading.
 *
 * The program passes the numbers 1..ITEMS through a small ring and counts
 * the ones that arrive out of order.
 *
 * BROKEN: the consumer has no cmm_smp_rmb() between its read of `head` and
 * its read of the slot, so on a weakly ordered CPU it can read the slot
 * before the producer's store to it lands and get a number from the last
 * lap. x86 never reorders two loads, so it does not show here.
 *
 * Build and run: cc -O2 -pthread correct.c && ./a.out */
#include <pthread.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/system.h>

#define RING_SIZE 256
#define ITEMS 1000000

struct ring {
  unsigned long head; /* next slot to fill: stored by the producer only */
  unsigned long tail; /* next slot to empty: stored by the consumer only */
  unsigned long slots[RING_SIZE];
};

static struct ring ring;

static int ring_push(struct ring *r, unsigned long value) {
  unsigned long head = r->head;
  if (head - CMM_LOAD_SHARED(r->tail) == RING_SIZE)
    return 0; /* full */
  cmm_smp_mb(); /* the consumer is done with the slot before we reuse it */
  CMM_STORE_SHARED(r->slots[head % RING_SIZE], value);
  cmm_smp_wmb(); /* fill the slot before publishing it */
  CMM_STORE_SHARED(r->head, head + 1);
  return 1;
}

static int ring_pop(struct ring *r, unsigned long *value) {
  unsigned long tail = r->tail;
  if (CMM_LOAD_SHARED(r->head) == tail)
    return 0; /* empty */
  *value = CMM_LOAD_SHARED(r->slots[tail % RING_SIZE]);
  cmm_smp_mb(); /* finish reading the slot before handing it back */
  CMM_STORE_SHARED(r->tail, tail + 1);
  return 1;
}

static void *producer(void *unused) {
  (void)unused;
  for (unsigned long i = 1; i <= ITEMS; i++)
    while (!ring_push(&ring, i))
      caa_cpu_relax();
  return NULL;
}

static void *consumer(void *result) {
  unsigned long expected = 1, value, out_of_order = 0;
  while (expected <= ITEMS) {
    if (!ring_pop(&ring, &value)) {
      caa_cpu_relax();
      continue;
    }
    out_of_order += value != expected;
    expected++;
  }
  *(unsigned long *)result = out_of_order;
  return NULL;
}

int main(void) {
  pthread_t producer_thread, consumer_thread;
  unsigned long out_of_order = 0;
  pthread_create(&consumer_thread, NULL, consumer, &out_of_order);
  pthread_create(&producer_thread, NULL, producer, NULL);
  pthread_join(producer_thread, NULL);
  pthread_join(consumer_thread, NULL);
  printf("spsc-ring: %lu of %d items arrived out of order\n", out_of_order, ITEMS);
  return out_of_order != 0;
}
