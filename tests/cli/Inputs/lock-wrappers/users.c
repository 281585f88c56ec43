// Two sides that run under the big lock, through its wrappers in lock.c:
// they never run at once, so the reader needs no barrier. The unlocked
// reader does race with the writer, and misses its rmb. The one that
// asserts, after its loads, that its caller holds the lock runs under it
// from its entry: the assertion takes nothing where it stands, but says
// what held all along.
#include <urcu/arch.h>
#include <urcu/system.h>

void big_lock(void);
void big_unlock(void);
void big_locked_noop(void);
void big_assert_held(void);

int config_value, config_ready;

void config_set(int value) {
  big_lock();
  CMM_STORE_SHARED(config_value, value);
  cmm_smp_wmb(); // for config_get_unlocked()
  CMM_STORE_SHARED(config_ready, 1);
  big_unlock();
}

int config_get(void) {
  big_lock();
  int value = CMM_LOAD_SHARED(config_ready) ? CMM_LOAD_SHARED(config_value) : -1;
  big_unlock();
  return value;
}

int config_get_unlocked(void) {
  big_locked_noop();
  return CMM_LOAD_SHARED(config_ready) ? CMM_LOAD_SHARED(config_value) : -1;
}

int config_get_asserted(void) {
  int value = CMM_LOAD_SHARED(config_ready) ? CMM_LOAD_SHARED(config_value) : -1;
  big_assert_held();
  return value;
}
