// An early look that a loop checks again, ordered: the resizer sets a flag
// and reads the target with no barrier between, but before its loop ends it
// clears the flag, orders that before a second read of the target with a
// full barrier, and goes round again when the target changed (liburcu's
// hash table resize against its lazy launcher, which stores the target,
// then `cmm_smp_mb()`, then reads the flag). A launcher that read the flag
// set from the first store read it before the clearing, so the second read
// sees its target: the early read needs no barrier. Without the loop's
// barrier (-DNO_LOOP_BARRIER) the second read is no ordered check, and the
// first pairing is reported; a second read that does not send the loop
// round (-DNO_RETRY) checks nothing either.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNO_LOOP_BARRIER -Xclang -verify=nobarrier
// RUN: %barrierpair %s -DNO_RETRY -Xclang -verify=noretry
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

struct table {
  int resize_initiated;
  unsigned long size, resize_target;
};
struct table table;

static void resize_to(unsigned long size) {
  CMM_STORE_SHARED(table.size, size);
}

void resize(void) {
  unsigned long target;
  do {
    CMM_STORE_SHARED(table.resize_initiated, 1);
    target = CMM_LOAD_SHARED(table.resize_target); // nobarrier-warning {{no barrier orders the store to 'table.resize_initiated' before the load of 'table.resize_target' in 'resize'; with 'launch' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                                      nobarrier-note {{scenario 10 (Dekker) forbids}} \
                                                      noretry-warning {{no barrier orders the store to 'table.resize_initiated' before the load of 'table.resize_target' in 'resize'; with 'launch' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                                      noretry-note {{scenario 10 (Dekker) forbids}}
    if (target != CMM_LOAD_SHARED(table.size))
      resize_to(target);
    CMM_STORE_SHARED(table.resize_initiated, 0);
#ifndef NO_LOOP_BARRIER
    cmm_smp_mb();
#endif
#ifdef NO_RETRY
    (void)CMM_LOAD_SHARED(table.resize_target);
  } while (0);
#else
  } while (CMM_LOAD_SHARED(table.size) != CMM_LOAD_SHARED(table.resize_target));
#endif
}

int launch(unsigned long target) {
  CMM_STORE_SHARED(table.resize_target, target);
  cmm_smp_mb(); // nobarrier-note {{'launch' orders the store to 'table.resize_target' before the load of 'table.resize_initiated' with 'cmm_smp_mb()'}} \
                   noretry-note {{'launch' orders the store to 'table.resize_target' before the load of 'table.resize_initiated' with 'cmm_smp_mb()'}}
  return !CMM_LOAD_SHARED(table.resize_initiated);
}
