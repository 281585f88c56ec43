/* Message passing (scenario 3): the writer stores the message and then the
 * flag, the reader loads the flag and then the message. */
#include <urcu/arch.h>
#include <urcu/system.h>

static int mp_message;
static int mp_ready;

void mp_send(int value) {
  CMM_STORE_SHARED(mp_message, value);
  cmm_smp_wmb(); /* the message before the flag */
  CMM_STORE_SHARED(mp_ready, 1);
}

int mp_receive(void) {
  if (!CMM_LOAD_SHARED(mp_ready))
    return -1;
  cmm_smp_rmb(); /* the flag before the message */
  return CMM_LOAD_SHARED(mp_message);
}
