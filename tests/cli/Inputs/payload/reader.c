#include <urcu/arch.h>
#include <urcu/system.h>

extern int payload, published;

int reader(void) {
  if (!CMM_LOAD_SHARED(published))
    return 0;
  cmm_smp_rmb();
  return payload;
}
