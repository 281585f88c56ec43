// The plugin's warnings obey the user's warning flags like any clang warning.
//
// RUN: %barrierpair %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %barrierpair %s -Werror 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: %barrierpair %s -w 2>&1 | count 0
// RUN: %barrierpair %s -Wno-backend-plugin 2>&1 | count 0
// RUN: %barrierpair %s -DIGNORE_BY_PRAGMA 2>&1 | count 0
// RUN: not %barrierpair %s -DERROR_BY_PRAGMA 2>&1 | FileCheck %s --check-prefix=ERROR
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;

void writer(void) {
  CMM_STORE_SHARED(y, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(x, 1);
}

#if defined(IGNORE_BY_PRAGMA)
#pragma clang diagnostic ignored "-Wbackend-plugin"
#elif defined(ERROR_BY_PRAGMA)
#pragma clang diagnostic error "-Wbackend-plugin"
#endif

int reader(void) {
  int r1 = CMM_LOAD_SHARED(x);
  return r1 ? CMM_LOAD_SHARED(y) : 0;
}

// WARN: warning-flags.c:[[@LINE-3]]:15: warning: no barrier orders the load of 'x' before the load of 'y' in 'reader'{{.*}}[barrierpair-missing-barrier] [-Wbackend-plugin]
// WARN: note: 'writer' orders the store to 'y' before the store to 'x' with 'cmm_smp_wmb()'
// ERROR: warning-flags.c:[[@LINE-5]]:15: error: no barrier orders the load of 'x' before the load of 'y' in 'reader'{{.*}}[barrierpair-missing-barrier]
