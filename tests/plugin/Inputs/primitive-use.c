// Input of primitive-use.test, one unit per -D: a message-passing pair whose
// accesses and barrier use the primitive table in the way the macro names,
// or in no way at all. This file must not name the analyzer, whose
// annotations are read from the text.
#if defined(BY_MACRO)
#include <urcu/arch.h>
#include <urcu/system.h>
#define LOAD(x) CMM_LOAD_SHARED(x)
#define STORE(x, v) CMM_STORE_SHARED(x, v)
#define WMB() cmm_smp_wmb()
#elif defined(BY_CALL)
// Functions of a primitive file, called (Inputs/called-markings.def).
int mylib_load(const int *p);
void mylib_store(int *p, int value);
void mylib_wmb(void);
#define LOAD(x) mylib_load(&(x))
#define STORE(x, v) mylib_store(&(x), v)
#define WMB() mylib_wmb()
#elif defined(BY_BUILTIN)
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), v, __ATOMIC_RELAXED)
#define WMB() __atomic_thread_fence(__ATOMIC_RELEASE)
#elif defined(BY_HELPER)
// Only helpers of a header use primitives, through no macro.
#include "primitive-use-helpers.h"
#define LOAD(x) helper_load(&(x))
#define STORE(x, v) helper_store(&(x), v)
#define WMB() helper_wmb()
#else
#define LOAD(x) (x)
#define STORE(x, v) ((x) = (v))
#define WMB() ((void)0)
#endif

#if defined(DEFINED_ONLY)
// A primitive's name in a macro that is never expanded is no use of it.
#define UNUSED_BARRIER() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#if defined(STATIC_ONLY)
#define LINKAGE static
#else
#define LINKAGE
#endif

int message, ready;

LINKAGE void writer(void) {
  STORE(message, 1);
  WMB();
  STORE(ready, 1);
}

LINKAGE int reader(void) {
  if (!LOAD(ready))
    return 0;
  return LOAD(message);
}

#if defined(BY_ATOMIC)
_Atomic int counter;
void count(void) { counter++; }
#elif defined(BY_VOLATILE)
volatile int flag;
void raise_flag(void) { flag = 1; }
#elif defined(BY_RELAXED)
int counter;
void count(void) { __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED); }
int counted(void) { return __atomic_load_n(&counter, __ATOMIC_RELAXED); }
#elif defined(BY_NUMBER)
// An order written as a number (2 is acquire) in a unit that never names
// one: only its builtin's use shows.
int counter;
int counted(void) { return __atomic_load_n(&counter, 2); }
#endif
