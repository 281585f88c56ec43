// r1 = y; mb; z = 1.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int y, z;

void cpu1(int *r1) {
  *r1 = CMM_LOAD_SHARED(y);
  cmm_smp_mb();
  CMM_STORE_SHARED(z, 1);
}
