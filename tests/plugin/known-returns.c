// A helper that returns a constant on a path: the caller's test of the call
// takes one branch on that path, not both. The reader's helper orders the
// flag before the message on the path that returns true; the path that
// returns false reads no message, since the caller gives up on it.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNESTED -Xclang -verify
// RUN: %barrierpair %s -DUNORDERED -Xclang -verify=unordered
// RUN: %barrierpair %s -DVALUE_TESTED -Xclang -verify
// RUN: %barrierpair %s -DVALUE_CHANGED -Xclang -verify=changed
// RUN: %barrierpair %s -DASSERTED -Xclang -verify
// RUN: %barrierpair %s -DVALUE_TESTED -DASSERTIONS_BETWEEN -Xclang -verify
// RUN: %barrierpair %s -DASSERTED_VALUE -Xclang -verify
// RUN: %barrierpair %s -DASSERTED_VALUE -DNOT_ASSERTED -Xclang -verify=unasserted
// expected-no-diagnostics
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/arch.h>
#include <urcu/system.h>

int flag, message;

void writer(void) {
  CMM_STORE_SHARED(message, 1);
  cmm_smp_wmb(); // unordered-note {{'writer' orders the store to 'message' before the store to 'flag' with 'cmm_smp_wmb()'}} \
                    changed-note {{'writer' orders the store to 'message' before the store to 'flag' with 'cmm_smp_wmb()'}} \
                    unasserted-note {{'writer' orders the store to 'message' before the store to 'flag' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(flag, 1);
}

static bool ready(void) {
  if (!CMM_LOAD_SHARED(flag)) // unordered-note {{'reader' loads 'flag' here}} changed-note {{'other_reader' loads 'flag' here}}
    return false;
#ifdef ASSERTED
  // A failed assertion does not return: its path ends here, not in the
  // caller's test of the helper's value.
  assert(flag != 2);
#endif
#ifndef UNORDERED
  cmm_smp_rmb();
#endif
  return true;
}

#ifdef NESTED
// A call whose value is returned passes its known returns on.
static bool ready_again(void) { return ready(); }
#define READY ready_again
#else
#define READY ready
#endif

int reader(void) {
  if (!READY())
    return 0;
  return CMM_LOAD_SHARED(message); // unordered-warning {{no barrier orders the load of 'flag' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing)}} \
                                      unordered-note {{scenario 3 (message passing) forbids}}
}

#ifdef VALUE_TESTED
// The value may go through a local that holds it and nothing else: a test
// of the local is a test of the call.
int other_reader(void) {
  bool seen = ready();
  int result = 0;
#ifdef ASSERTIONS_BETWEEN
  // assertions between the call and the test test nothing the branch uses
  assert(result != 3);
  assert(result == 0);
#endif
  if (seen)
    result = CMM_LOAD_SHARED(message);
  return result;
}
#endif

#ifdef VALUE_CHANGED
// A local written again is not the call's value any more: both branches
// stay.
int other_reader(int force) {
  bool seen = ready();
  int result = 0;
  seen |= force;
  if (seen)
    result = CMM_LOAD_SHARED(message); // changed-warning {{no barrier orders the load of 'flag' before the load of 'message' in 'other_reader'; with 'writer' this is scenario 3 (message passing)}} \
                                          changed-note {{scenario 3 (message passing) forbids}}
  return result;
}
#endif

#if defined(ASSERTED_VALUE)
// An assertion on the value ends the paths of the returns that fail it: a
// helper that would return BUSY after reading the flag without its barrier
// (liburcu's queue splice, whose blocking form never returns WOULDBLOCK, as
// its caller asserts) does not reach the caller's read of the message.
enum outcome { BUSY = -1, EMPTY, TAKEN };

static enum outcome take(int blocking) {
  if (!CMM_LOAD_SHARED(flag)) { // unasserted-note {{'taker' loads 'flag' here}}
    if (!blocking)
      return BUSY;
    return EMPTY;
  }
  cmm_smp_rmb();
  return TAKEN;
}

int taker(void) {
  enum outcome got = take(1);
#ifndef NOT_ASSERTED
  assert(got != BUSY);
#endif
  if (got != EMPTY)
    return CMM_LOAD_SHARED(message); // unasserted-warning {{no barrier orders the load of 'flag' before the load of 'message' in 'taker'; with 'writer' this is scenario 3 (message passing)}} \
                                        unasserted-note {{scenario 3 (message passing) forbids}}
  return 0;
}
#endif

