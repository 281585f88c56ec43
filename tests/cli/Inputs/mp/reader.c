// The reader of message passing, in another file: flag, barrier, message.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int message, ready;

int reader(void) {
  while (!CMM_LOAD_SHARED(ready))
    ;
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(message);
}
