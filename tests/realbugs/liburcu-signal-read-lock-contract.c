// liburcu, include/urcu/static/urcu-signal.h: commit c5b26a3e57e3 ("Fix:
// Add missing cmm_smp_mb() in deprecated urcu-signal"), seen from the
// library alone.
//
// When urcu-signal stopped sending signals to readers, the outermost
// read lock kept only cmm_barrier() after its store of the reader's counter,
// where urcu-mb has cmm_smp_mb(): the reader's critical section is the
// user's code, so no pairing inside the library shows the barrier missing
// (liburcu-signal-read-lock-mb.c is the same bug with a reader and an
// updater written out). Stated as a contract (Inputs/liburcu-signal.def:
// the read lock orders its store before its caller's later accesses, as
// urcu-mb's does in primitives.def), the analysis must report
// broken-contract at the counter's store in 'urcu_signal_read_lock', with a
// note at the cmm_barrier() left; the nested path, which skips the barrier
// by design, must not be reported in the fixed version.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/liburcu-signal.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/liburcu-signal.def -DFIXED -Xclang -verify=fixed
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/liburcu-signal.def -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX
// fixed-no-diagnostics
// The fix-it is upstream's fix: the cmm_barrier() becomes cmm_smp_mb().
// FIX: fix-it:"{{.*}}liburcu-signal-read-lock-contract.c":{[[#@LINE+24]]:5-[[#@LINE+24]]:18}:"cmm_smp_mb()"
#include <urcu/arch.h>
#include <urcu/system.h>

#define URCU_GP_COUNT 1UL
#define URCU_GP_CTR_NEST_MASK 0xffffUL

struct urcu_signal_gp {
  unsigned long ctr;
};

struct urcu_signal_reader {
  unsigned long ctr;
};

struct urcu_signal_gp urcu_signal_gp = {URCU_GP_COUNT};
static __thread struct urcu_signal_reader urcu_signal_reader;

static inline void _urcu_signal_read_lock_update(unsigned long tmp) {
  if (!(tmp & URCU_GP_CTR_NEST_MASK)) {
    _CMM_STORE_SHARED(urcu_signal_reader.ctr, _CMM_LOAD_SHARED(urcu_signal_gp.ctr)); // before-warning {{no barrier in 'urcu_signal_read_lock' orders the store to 'urcu_signal_reader.ctr' (in its call of '_urcu_signal_read_lock_update') before its caller's later accesses, but its contract says its loads and stores come before its caller's later ones (BP_CONTRACT(urcu_signal_read_lock, EXIT, MB)); this needs cmm_smp_mb() after it}}
#ifdef FIXED
    cmm_smp_mb();
#else
    cmm_barrier(); // before-note {{'urcu_signal_read_lock' has only 'cmm_barrier()' (in its call of '_urcu_signal_read_lock_update') on the way, which is not enough}}
#endif
  } else {
    _CMM_STORE_SHARED(urcu_signal_reader.ctr, tmp + URCU_GP_COUNT);
  }
}

void urcu_signal_read_lock(void) {
  unsigned long tmp;

  cmm_barrier();
  tmp = urcu_signal_reader.ctr;
  _urcu_signal_read_lock_update(tmp);
}
