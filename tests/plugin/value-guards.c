// A side whose second access runs only when its first load read zero, of a
// flag that every store sets to a non-zero constant (liburcu's hash table:
// `if (CMM_LOAD_SHARED(ht->in_progress_destroy)) break;` in the resize,
// and `_CMM_STORE_SHARED(ht->in_progress_destroy, 1)` in the destroy, its
// only store). An outcome that needs that load to read a store's value
// (the new flag) never reaches the second access: the pairing is no
// scenario at all. Where some store clears the flag again, reading a
// store's value may read zero, and the pairing stands.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DCLEARED -Xclang -verify=cleared,first
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DUNKNOWN -Xclang -verify=cleared,first
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSECOND_READ -Xclang -verify=cleared,second
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

struct table {
  int destroying, initiated, target;
};

void destroy_table(struct table *t) {
  CMM_STORE_SHARED(t->destroying, 1);
}

#ifdef CLEARED
void revive_table(struct table *t) {
  CMM_STORE_SHARED(t->destroying, 0);
}
#endif
#ifdef UNKNOWN
void mark_table(struct table *t, int how) {
  CMM_STORE_SHARED(t->destroying, how);
}
#endif

// Scenario 1: it stores `initiated` only when it read `destroying` clear,
// with a full barrier between (a third CPU stores `destroying`, so the
// row needs a cumulative barrier: the control dependency alone orders only
// locally, and a side that orders only locally asks nothing of its
// partner: tests/plugin/three-cpu-rows.c).
void resize_table(struct table *t) {
#ifdef SECOND_READ
  // the test reads the flag again: what the pairing's first load read
  // does not decide the store
  if (CMM_LOAD_SHARED(t->destroying) == 2)
    return;
  if (!CMM_LOAD_SHARED(t->initiated))
    return;
#endif
  if (CMM_LOAD_SHARED(t->destroying))
    return;
  cmm_smp_mb(); // first-note {{'resize_table' orders the load of 'table.destroying' before the store to 'table.initiated' with 'cmm_smp_mb()'}} \
                   second-note@-0 {{'resize_table' orders the load of 'table.destroying' before the store to 'table.initiated' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(t->initiated, 1);
}

// The resize is done: `initiated` goes back to zero, so the launcher's
// test of it may read a store's value and still go on.
void finish_resize(struct table *t) {
  CMM_STORE_SHARED(t->initiated, 0);
}

// Reads `initiated`, then `destroying`, with no barrier between.
int launch_resize(struct table *t) {
  if (!CMM_LOAD_SHARED(t->initiated)) {
    if (CMM_LOAD_SHARED(t->destroying)) // cleared-warning {{no barrier orders the load of 'table.initiated' before the load of 'table.destroying' in 'launch_resize'; with 'resize_table' this is scenario 1}} \
                                           cleared-note@-0 {{scenario 1 forbids}}
      return -1;
    return 1;
  }
  return 0;
}
