// The writer of message passing (scenario 3): message, then flag.
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}
