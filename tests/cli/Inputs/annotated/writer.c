// Writers whose readers are in reader.c, annotated.
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready, flag, data;

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in reader() */
  CMM_STORE_SHARED(ready, 1);
}

void writer2(void) {
  CMM_STORE_SHARED(data, 1);
  cmm_smp_wmb(); /* barrierpair: pairs with reader_in_a_library */
  CMM_STORE_SHARED(flag, 1);
}
