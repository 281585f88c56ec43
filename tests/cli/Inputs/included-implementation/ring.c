/* A source file the build compiles only through build-all.c. The reader
 * is missing its rmb. */
#include <urcu/arch.h>
#include <urcu/system.h>

static int ring_entry, ring_head;

void ring_put(int value) {
  CMM_STORE_SHARED(ring_entry, value);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ring_head, 1);
}

int ring_get(void) {
  if (!CMM_LOAD_SHARED(ring_head))
    return 0;
  return CMM_LOAD_SHARED(ring_entry);
}
