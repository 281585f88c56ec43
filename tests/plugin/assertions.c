// What assert() checks is read as the release build (NDEBUG) compiles it:
// not at all. The reader's check of the message inside an assertion makes
// no pairing with the writer; the same loads outside it do.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DOUTSIDE -Xclang -verify=outside
// RUN: %barrierpair %s -DNDEBUG -Xclang -verify
// expected-no-diagnostics
#include <assert.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int flag, message;

void writer(void) {
  CMM_STORE_SHARED(message, 1);
  cmm_smp_wmb(); // outside-note {{'writer' orders the store to 'message' before the store to 'flag' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(flag, 1);
}

void reader(void) {
#ifdef OUTSIDE
  if (CMM_LOAD_SHARED(flag) && CMM_LOAD_SHARED(message) != 1) // outside-warning {{no barrier orders the load of 'flag' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing)}} \
                                                              outside-note {{scenario 3 (message passing) forbids}}
    return;
#else
  assert(!CMM_LOAD_SHARED(flag) || CMM_LOAD_SHARED(message) == 1);
#endif
}
