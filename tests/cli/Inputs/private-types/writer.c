/* A structure this file defines for itself: no other file has its
 * definition, so no other file reaches its fields. */
#include <urcu/arch.h>
#include <urcu/system.h>

struct state {
  int payload;
  int ready;
};

void publish(struct state *s) {
  s->payload = 42;
  cmm_smp_wmb();
  CMM_STORE_SHARED(s->ready, 1);
}
