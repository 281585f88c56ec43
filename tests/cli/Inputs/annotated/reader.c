// Readers of writer.c's messages, annotated.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int message, ready, flag, data;

int reader(void) {
  int seen = CMM_LOAD_SHARED(ready);
  cmm_smp_rmb(); /* pairs with writer2() */
  return seen + CMM_LOAD_SHARED(message);
}

int logger(void) {
  int seen = CMM_LOAD_SHARED(flag);
  // barrierpair: ignore missing-barrier: data is read only to be logged
  return seen ? CMM_LOAD_SHARED(data) : 0;
}
