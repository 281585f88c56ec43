// A call past the depth that calls are followed into (three) is not
// lowered where it is called; where the function is one of the program's
// own roots and orders (here an rmb four calls below the reader), the call
// ends the windows around it: the reader is not "ordered by nothing".
// A static function past the depth is no root, so its order is not found
// (a known limit: per-function summaries would find it), and a function
// that orders nothing is no ordering point.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNO_FENCE -Xclang -verify=open
// RUN: %barrierpair %s -DSTATIC_FENCE -Xclang -verify=open
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;

#ifdef STATIC_FENCE
static
#endif
void
read_fence(void) {
#ifndef NO_FENCE
  cmm_smp_rmb();
#endif
  (void)CMM_LOAD_SHARED(ready);
}

static void level3(void) { read_fence(); }
static void level2(void) { level3(); }
static void level1(void) { level2(); }

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb(); // open-note {{'writer' orders the store to 'message' before the store to 'ready' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(ready, 1);
}

int reader(void) {
  if (!CMM_LOAD_SHARED(ready))
    return -1;
  level1();
  return CMM_LOAD_SHARED(message); // open-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing)}} \
                                      open-note {{scenario 3}}
}
