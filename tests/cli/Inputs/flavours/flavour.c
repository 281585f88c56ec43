/* One file built twice, as a writer and as a reader of its own `static`
 * variables: each build has its own, so the two never meet. */
#include <urcu/arch.h>
#include <urcu/system.h>

static int ready, message;

#ifdef WRITER
void flavour_writer(void) {
  message = 42;
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}
#else
int flavour_reader(void) {
  int seen = CMM_LOAD_SHARED(ready);
  return seen ? CMM_LOAD_SHARED(message) : 0;
}
#endif
