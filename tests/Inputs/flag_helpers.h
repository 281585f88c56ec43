/* Helpers a library keeps in a header, as liburcu keeps _rcu_* functions. */
#ifndef TEST_FLAG_HELPERS_H
#define TEST_FLAG_HELPERS_H
#include <urcu/arch.h>
#include <urcu/system.h>

static inline void flag_raise(int *flag) {
  cmm_smp_wmb();
  CMM_STORE_SHARED(*flag, 1);
}

static inline int flag_seen(int *flag) { return CMM_LOAD_SHARED(*flag); }

/* Reads a flag, then its message, with no barrier between: one defect,
 * whoever calls it. */
static inline int flag_then_message(int *flag, int *message) {
  if (!CMM_LOAD_SHARED(*flag))
    return 0;
  return CMM_LOAD_SHARED(*message);
}
#endif
