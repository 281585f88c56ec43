#include <urcu/arch.h>
#include <urcu/system.h>

int payload, published;

void writer(void) {
  payload = 42;
  cmm_smp_wmb();
  CMM_STORE_SHARED(published, 1);
}
