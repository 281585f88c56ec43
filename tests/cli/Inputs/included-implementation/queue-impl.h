/* An implementation file: functions the including file's unit defines, as
 * liburcu's urcu-call-rcu-impl.h is included into each flavour's urcu.c.
 * The consumer is missing its rmb. */
#include <urcu/arch.h>
#include <urcu/system.h>

struct slot {
  int payload;
  int ready;
};

static struct slot the_slot;

void slot_publish(int value) {
  the_slot.payload = value;
  cmm_smp_wmb();
  CMM_STORE_SHARED(the_slot.ready, 1);
}

int slot_consume(void) {
  if (!CMM_LOAD_SHARED(the_slot.ready))
    return 0;
  return CMM_LOAD_SHARED(the_slot.payload);
}
