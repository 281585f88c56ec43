// A nested read lock adds to a count whose nesting bits it found non-zero
// (`ctr = tmp + COUNT` on the branch where `tmp & NEST_MASK` is non-zero,
// tmp being the caller's load of the counter): those bits stay non-zero,
// so an updater that tests only them cannot tell whether the store
// happened, and the store needs no barrier before the section's loads.
// The outermost level, which sets the bits, still does. A decrement may
// clear them, and a test of other bits (the phase) may see the store:
// both pair again.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DDECREMENT -Xclang -verify=changed,decrement
// RUN: %barrierpair %s -DTEST_PHASE -Xclang -verify=changed,phase
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define COUNT 1UL
#define NEST_MASK 0xffffUL
#define PHASE (1UL << 16)
#ifdef TEST_PHASE
#define TESTED PHASE
#else
#define TESTED NEST_MASK
#endif

struct reader {
  unsigned long ctr;
};

unsigned long gp_ctr = COUNT;
int *shared;

static void lock_update(struct reader *self, unsigned long tmp) {
  if (!(tmp & NEST_MASK)) {
    CMM_STORE_SHARED(self->ctr, CMM_LOAD_SHARED(gp_ctr));
    cmm_smp_mb();
  } else {
#ifdef DECREMENT
    CMM_STORE_SHARED(self->ctr, tmp - COUNT); // decrement-note {{'reader' stores 'reader.ctr' here, before the load of 'shared' with no barrier between}}
#else
    CMM_STORE_SHARED(self->ctr, tmp + COUNT); // phase-note {{'reader' stores 'reader.ctr' here, before the load of 'shared' with no barrier between}}
#endif
  }
}

int reader(struct reader *self) {
  lock_update(self, CMM_LOAD_SHARED(self->ctr));
  int *seen = CMM_LOAD_SHARED(shared); // changed-warning {{no barrier orders the store to 'reader.ctr' before the load of 'shared' in 'reader'; with 'updater' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                          changed-note {{scenario 10 (Dekker) forbids}}
  int value = seen ? *seen : 0;
  cmm_smp_mb();
  CMM_STORE_SHARED(self->ctr, self->ctr - COUNT);
  return value;
}

int updater(int *fresh, struct reader *registered) {
  CMM_STORE_SHARED(shared, fresh);
  cmm_smp_mb(); // changed-note {{'updater' orders the store to 'shared' before the load of 'reader.ctr' with 'cmm_smp_mb()'}}
  return (CMM_LOAD_SHARED(registered->ctr) & TESTED) != 0;
}
