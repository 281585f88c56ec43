// Concurrency Kit, src/ck_hs.c: commit dbba02d7cd13 ("ck_hs: add missing
// fence for RMO.").
//
// When a writer relocates an entry of the hash set it stores the new copy,
// bumps the generation counter of the entry's hash (ck_hs_map_signal()) and
// then destroys the old copy. Readers (ck_hs_get()) load the generation,
// fence, probe, fence and load the generation again, retrying if it moved.
// The signal had a store fence only after the increment, so on RMO the new
// generation could become visible before the new copy: a reader could see the
// new generation, probe past the copy it could not see yet, find the old one
// destroyed and miss a present key. Message passing; the fix adds
// ck_pr_fence_store() before the increment. The analyzer must report
// missing-barrier in 'ck_hs_relocate' (in its call of 'ck_hs_map_signal')
// for the store to 'ck_hs_map.entries[]' before the store to
// 'ck_hs_map.generation[]', paired with 'ck_hs_get'.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/ck_pr.h"

#define CK_HS_G 1024
#define CK_HS_G_MASK (CK_HS_G - 1)
#define CK_HS_TOMBSTONE ((void *)~(unsigned long)0)

struct ck_hs_map {
  unsigned int generation[CK_HS_G];
  unsigned long mask;
  const void *entries[64];
};

static void ck_hs_map_signal(struct ck_hs_map *map, unsigned long h) {
  h &= CK_HS_G_MASK;
#ifdef FIXED
  ck_pr_fence_store();
#endif
  ck_pr_store_uint(&map->generation[h], map->generation[h] + 1); // before-warning {{store to 'ck_hs_map.entries[]' before the store to 'ck_hs_map.generation[]' in 'ck_hs_relocate'}} \
                                                                    before-note {{scenario 12}}
  ck_pr_fence_store();
}

void ck_hs_relocate(struct ck_hs_map *map, unsigned long h, unsigned long from, unsigned long to) {
  const void *key = ck_pr_load_ptr(&map->entries[from]);
  ck_pr_store_ptr(&map->entries[to], key); // before-note {{'ck_hs_relocate' stores 'ck_hs_map.entries[]' here}}
  ck_hs_map_signal(map, h);
  ck_pr_store_ptr(&map->entries[from], CK_HS_TOMBSTONE);
}

const void *ck_hs_get(struct ck_hs_map *map, unsigned long h, const void *key) {
  unsigned int generation;
  const void *object;
  do {
    generation = ck_pr_load_uint(&map->generation[h & CK_HS_G_MASK]);
    ck_pr_fence_load(); // before-note {{'ck_hs_get' orders the load of 'ck_hs_map.generation[]' before the load of 'ck_hs_map.entries[]'}}
    object = ck_pr_load_ptr(&map->entries[h & map->mask]);
    ck_pr_fence_load();
  } while (generation != ck_pr_load_uint(&map->generation[h & CK_HS_G_MASK]));
  return object == key ? object : 0;
}
