/* Dekker (scenario 10): each side raises its own flag and then looks at the
 * other's; only full barriers keep both from seeing the other's flag down. */
#include <urcu/arch.h>
#include <urcu/system.h>

static int dekker_flag0;
static int dekker_flag1;

int dekker_enter0(void) {
  CMM_STORE_SHARED(dekker_flag0, 1);
  cmm_smp_mb(); /* raise ours before looking at theirs */
  return !CMM_LOAD_SHARED(dekker_flag1);
}

int dekker_enter1(void) {
  CMM_STORE_SHARED(dekker_flag1, 1);
  cmm_smp_mb();
  return !CMM_LOAD_SHARED(dekker_flag0);
}
