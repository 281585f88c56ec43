// r3 = z; rmb; r4 = x.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int x, z;

void cpu2(int *r3, int *r4) {
  *r3 = CMM_LOAD_SHARED(z);
  cmm_smp_rmb();
  *r4 = CMM_LOAD_SHARED(x);
}
