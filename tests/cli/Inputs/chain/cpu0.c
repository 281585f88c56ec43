// The article's three-CPU example, one CPU per file: x = 1; wmb; y = 1.
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y, z;

void cpu0(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(y, 1);
}
