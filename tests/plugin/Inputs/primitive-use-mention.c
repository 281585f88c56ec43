// Input of primitive-use.test. Written for barrierpair's tests: naming the
// analyzer in a comment makes no function that uses no primitive worth
// lowering (primitive-use-annotation.c: an annotation in its text does).
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready, plain;

void writer(void) {
  CMM_STORE_SHARED(message, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}

void set_plain(void) {
  plain = 1;
}
