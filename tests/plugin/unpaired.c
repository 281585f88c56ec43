// unpaired-barrier: off in the plugin unless asked for, since a barrier's
// partner is often in another file.
//
// RUN: %barrierpair %s -Xclang -verify=default
// RUN: %barrierpair %s -fplugin-arg-barrierpair-unpaired -Xclang -verify=on
// default-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready, a, b;

void writer(void) {
  CMM_STORE_SHARED(message, 1);
  cmm_smp_wmb(); // on-warning {{'cmm_smp_wmb()' in 'writer' pairs with no other function: none accesses 'ready' and then 'message' (its partner may be in code not analysed)}}
  CMM_STORE_SHARED(ready, 1);
}

// Paired: quiet.
void publish(void) {
  CMM_STORE_SHARED(a, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(b, 1);
}
int consume(void) {
  int seen = CMM_LOAD_SHARED(b);
  cmm_smp_rmb();
  return seen + CMM_LOAD_SHARED(a);
}

// One object on both sides acts alone (Quick Quiz 8); no accesses on one
// side: the partner may be in a caller. Both quiet.
int reread(void) {
  int first = CMM_LOAD_SHARED(a);
  cmm_smp_mb();
  return first + CMM_LOAD_SHARED(a);
}
void fence_only(void) { cmm_smp_mb(); }

// A thread barrier that every thread runs: the last to arrive resets the
// count and then flips the sense, the others wait for the sense and then
// count again in the next round. The function pairs with itself, run by
// another thread: quiet.
int arrived, sense;

void wait_for_all(int threads, int my_sense) {
  if (__atomic_add_fetch(&arrived, 1, __ATOMIC_RELAXED) == threads) {
    CMM_STORE_SHARED(arrived, 0);
    cmm_smp_mb();
    CMM_STORE_SHARED(sense, my_sense);
    return;
  }
  while (CMM_LOAD_SHARED(sense) != my_sense)
    ;
  cmm_smp_mb();
  CMM_STORE_SHARED(arrived, CMM_LOAD_SHARED(arrived));
}

// Initialisation checked twice (sqlite3_initialize()): the fast path reads
// the flag, then its barrier orders whatever the caller does next, which no
// function orders before the flag. The flag itself is stored after a barrier
// elsewhere: the pair exists, only its other objects are out of sight.
// Quiet. A barrier whose objects no other barrier has on its other side
// (writer() above) is still alone.
int initialised, setting, registry, lookups;

void initialise(void) {
  CMM_STORE_SHARED(setting, 1);
  cmm_smp_mb();
  CMM_STORE_SHARED(initialised, 1);
}

int register_entry(int entry) {
  if (!CMM_LOAD_SHARED(initialised))
    return -1;
  cmm_smp_mb();
  CMM_STORE_SHARED(registry, entry);
  return CMM_LOAD_SHARED(lookups);
}
