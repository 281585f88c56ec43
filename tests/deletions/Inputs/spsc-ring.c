/* Single-producer/single-consumer ring: publishing a slot is message
 * passing (wmb/rmb), handing it back is load-then-store on both sides
 * (mb/mb). */
#include <urcu/arch.h>
#include <urcu/system.h>

#define RING_SIZE 64

struct spsc_ring {
  unsigned long head; /* stored by the producer only */
  unsigned long tail; /* stored by the consumer only */
  unsigned long slots[RING_SIZE];
};

static struct spsc_ring spsc;

int spsc_push(unsigned long value) {
  unsigned long head = spsc.head;
  if (head - CMM_LOAD_SHARED(spsc.tail) == RING_SIZE)
    return 0;
  cmm_smp_mb(); /* the consumer is done with the slot */
  CMM_STORE_SHARED(spsc.slots[head % RING_SIZE], value);
  cmm_smp_wmb(); /* fill the slot before publishing it */
  CMM_STORE_SHARED(spsc.head, head + 1);
  return 1;
}

int spsc_pop(unsigned long *value) {
  unsigned long tail = spsc.tail;
  if (CMM_LOAD_SHARED(spsc.head) == tail)
    return 0;
  cmm_smp_rmb(); /* see the slot that head published */
  *value = CMM_LOAD_SHARED(spsc.slots[tail % RING_SIZE]);
  cmm_smp_mb(); /* read the slot before handing it back */
  CMM_STORE_SHARED(spsc.tail, tail + 1);
  return 1;
}
