// Input of object-code.test: a function whose frame the backend reports
// (-Wframe-larger-than), beside a weak barrier the plugin reports.
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;

int dekker0(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_mb();
  return CMM_LOAD_SHARED(y);
}

int dekker1(void) {
  CMM_STORE_SHARED(y, 1);
  cmm_smp_wmb();
  return CMM_LOAD_SHARED(x);
}

void consume(volatile char *buffer);

void large_frame(void) {
  volatile char buffer[4096];
  consume(buffer);
}
