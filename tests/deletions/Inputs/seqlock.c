/* Seqlock: the writer makes the count odd, updates the pair, makes it even;
 * a reader reads the count, the pair, the count again. Two message-passing
 * pairs. */
#include <stdbool.h>
#include <urcu/arch.h>
#include <urcu/system.h>

static unsigned long seq_count; /* odd while an update is in progress */
static unsigned long seq_low, seq_high;

void seq_write(unsigned long value) {
  unsigned long seq = seq_count; /* only the writer stores it */
  CMM_STORE_SHARED(seq_count, seq + 1);
  cmm_smp_wmb(); /* odd before the data changes */
  CMM_STORE_SHARED(seq_low, value);
  CMM_STORE_SHARED(seq_high, value);
  cmm_smp_wmb(); /* the data before even */
  CMM_STORE_SHARED(seq_count, seq + 2);
}

bool seq_try_read(unsigned long *low, unsigned long *high) {
  unsigned long seq = CMM_LOAD_SHARED(seq_count);
  if (seq & 1)
    return false;
  cmm_smp_rmb(); /* the count before the data */
  *low = CMM_LOAD_SHARED(seq_low);
  *high = CMM_LOAD_SHARED(seq_high);
  cmm_smp_rmb(); /* the data before the count again */
  return CMM_LOAD_SHARED(seq_count) == seq;
}
