// liburcu, include/urcu/static/urcu-signal.h: commit c5b26a3e57e3 ("Fix:
// Add missing cmm_smp_mb() in deprecated urcu-signal").
//
// When urcu-signal stopped sending signals to readers (the grace period now
// relies on the readers' own barriers, as urcu-mb does), the outermost
// rcu_read_lock() kept only cmm_barrier() between the store of the reader's
// counter and the loads of the read-side critical section. The grace period
// publishes the new pointer, issues cmm_smp_mb() and reads each registered
// reader's counter. Store then load on both sides (Dekker): with a compiler
// barrier only, a reader could load the old pointer while the updater saw it
// outside any critical section and freed what it was reading. The fix makes
// it cmm_smp_mb(). The analyzer must report weak-barrier at the
// cmm_barrier() of '_urcu_signal_read_lock_update' (reached from 'reader')
// for the store to 'urcu_reader.ctr' before the load of 'shared_config',
// paired with 'update_config'.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
//
// The nested path's store to the counter has no barrier, and needs none:
// it runs only when the nesting bits were already non-zero and adds to
// them, so the updater's test of those bits reads "inside a critical
// section" before and after it (bp_set_stored_increment).
#include <urcu/arch.h>
#include <urcu/system.h>

#define URCU_GP_COUNT 1UL
#define URCU_GP_CTR_NEST_MASK 0xffffUL

struct urcu_gp {
  unsigned long ctr;
};

struct urcu_reader {
  unsigned long ctr;
};

struct config {
  int value;
};

static struct urcu_gp urcu_signal_gp = {URCU_GP_COUNT};
static struct config *shared_config;

static void _urcu_signal_read_lock_update(struct urcu_reader *self, unsigned long tmp) {
  if (!(tmp & URCU_GP_CTR_NEST_MASK)) {
    _CMM_STORE_SHARED(self->ctr, _CMM_LOAD_SHARED(urcu_signal_gp.ctr));
#ifdef FIXED
    cmm_smp_mb();
#else
    cmm_barrier(); // before-warning {{'cmm_barrier()' is too weak to order the store to 'urcu_reader.ctr' before the load of 'shared_config' in 'reader'}} \
                      before-note {{scenario 10}}
#endif
  } else {
    _CMM_STORE_SHARED(self->ctr, tmp + URCU_GP_COUNT);
  }
}

int reader(struct urcu_reader *self) {
  _urcu_signal_read_lock_update(self, _CMM_LOAD_SHARED(self->ctr));
  struct config *c = CMM_LOAD_SHARED(shared_config);
  int value = c ? c->value : 0;
  cmm_smp_mb();
  _CMM_STORE_SHARED(self->ctr, self->ctr - URCU_GP_COUNT);
  return value;
}

int update_config(struct config *new_config, struct urcu_reader *registered) {
  CMM_STORE_SHARED(shared_config, new_config);
  cmm_smp_mb(); // before-note {{'update_config' orders the store to 'shared_config' before the load of 'urcu_reader.ctr'}}
  return (CMM_LOAD_SHARED(registered->ctr) & URCU_GP_CTR_NEST_MASK) != 0;
}
