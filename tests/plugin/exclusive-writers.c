// Writers that a library's contract runs one at a time (BP_EXCLUSIVE, as
// share/primitives/ck.def declares a hash set's writers) are no third
// CPU for each other. The trim reads the probe bound that the put stored
// and then stores the maximum, with no barrier between; a reader loads the
// maximum, a read barrier, then the bound. With an independent writer of
// the bound that is scenario 4 (WRC), which needs a full barrier in the
// trim (its data dependency is not cumulative); with the writers serialised, what serialises them orders the put's
// store before the trim's accesses, as in one thread, and the pair needs
// no third CPU. Without the contract, the same code is reported.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/exclusive-writers.def -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=open
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

struct set {
  unsigned long bound, maximum;
};

void set_put(struct set *s, unsigned long probes) {
  CMM_STORE_SHARED(s->bound, probes);
}

void set_trim(struct set *s) {
  unsigned long bound = CMM_LOAD_SHARED(s->bound); // open-note {{'set_trim' depends on the value of 'set.bound' read here, but a dependency is not cumulative}}
  CMM_STORE_SHARED(s->maximum, bound); // open-warning {{only a dependency orders the load of 'set.bound' before the store to 'set.maximum' in 'set_trim'; with 'set_get' this is scenario 4, which needs cmm_smp_mb() here}} \
                                          open-note {{scenario 4 forbids}}
}

unsigned long set_get(struct set *s) {
  unsigned long maximum = CMM_LOAD_SHARED(s->maximum);
  cmm_smp_rmb(); // open-note {{'set_get' orders the load of 'set.maximum' before the load of 'set.bound' with 'cmm_smp_rmb()'}}
  return maximum + CMM_LOAD_SHARED(s->bound);
}
