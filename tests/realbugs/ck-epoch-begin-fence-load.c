// Concurrency Kit, include/ck_epoch.h: commit 1faa673e58f7 ("ck_epoch: add
// missing barrier for RMO architectures in begin.").
//
// Entering an epoch section marks the record active, issues a full fence,
// loads the global epoch and records it; the caller then reads the shared
// structure. The reclaimer unlinks an object, fences and advances the global
// epoch, and frees the object once every active record shows a newer epoch.
// Nothing ordered the load of the global epoch before the section's loads, so
// on RMO the reader could see the new epoch yet read the unlinked pointer
// from before it, and the reclaimer could free an object the section still
// held. Message passing across the end of ck_epoch_begin(); the fix adds
// ck_pr_fence_load() after the load of the epoch. The analyzer must report
// missing-barrier in 'reader' (the epoch load is in its call of
// 'ck_epoch_begin') for the load of 'ck_epoch.epoch' before the load of
// 'stack_top', paired with 'reclaim'.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/ck_pr.h"

struct ck_epoch {
  unsigned int epoch;
};

struct ck_epoch_record {
  unsigned int active;
  unsigned int epoch;
};

struct node {
  int value;
};

static struct ck_epoch global_epoch;
static struct node *stack_top;

static void ck_epoch_begin(struct ck_epoch_record *record) {
  ck_pr_store_uint(&record->active, 1);
  ck_pr_fence_memory();
  unsigned int g_epoch = ck_pr_load_uint(&global_epoch.epoch); // before-note {{'reader' loads 'global_epoch.epoch' here}}
#ifdef FIXED
  ck_pr_fence_load();
#endif
  ck_pr_store_uint(&record->epoch, g_epoch);
}

static void ck_epoch_end(struct ck_epoch_record *record) {
  ck_pr_fence_unlock();
  ck_pr_store_uint(&record->active, 0);
}

int reader(struct ck_epoch_record *record) {
  ck_epoch_begin(record);
  struct node *n = ck_pr_load_ptr(&stack_top); // before-warning {{load of 'global_epoch.epoch' before the load of 'stack_top' in 'reader'}} \
                                                  before-note {{scenario 3}}
  int value = n ? n->value : 0;
  ck_epoch_end(record);
  return value;
}

struct node *reclaim(void) {
  struct node *n = ck_pr_load_ptr(&stack_top);
  ck_pr_store_ptr(&stack_top, 0);
  ck_pr_fence_memory(); // before-note {{'reclaim' orders the store to 'stack_top' before}}
  unsigned int e = ck_pr_load_uint(&global_epoch.epoch);
  ck_pr_cas_uint(&global_epoch.epoch, e, e + 1);
  return n;
}
