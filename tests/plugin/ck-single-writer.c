// Concurrency Kit's hash set is single-writer, many-reader: the caller
// serialises every operation that changes it, which share/primitives/ck.def
// states as an exclusive group of its writers. Two writers pair with
// nothing; a writer and a reader still do. Named after CK's own functions
// so that the shipped primitive file's rows apply.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -DOTHER_NAMES -Xclang -verify=open
#include "../realbugs/Inputs/ck_pr.h"

#ifdef OTHER_NAMES
#define ck_hs_fas my_set_swap
#define ck_hs_apply my_set_apply
#endif

struct ck_hs_map {
  unsigned int probe_maximum, generation;
  unsigned int entries, sequence;
};

// Writer against writer (Dekker's shape): one at a time, by contract; with
// names in no group, the same code is reported.
void ck_hs_fas(struct ck_hs_map *map) {
  ck_pr_store_uint(&map->probe_maximum, 1);
  (void)ck_pr_load_uint(&map->generation); // open-warning {{no barrier orders the store to 'ck_hs_map.probe_maximum' before the load of 'ck_hs_map.generation' in 'my_set_swap'; with 'my_set_apply' this is scenario 10 (Dekker)}} open-note {{scenario 10}}
}

void ck_hs_apply(struct ck_hs_map *map) {
  ck_pr_store_uint(&map->generation, 1);
  ck_pr_fence_memory(); // open-note {{'my_set_apply' orders the store to 'ck_hs_map.generation' before the load of 'ck_hs_map.probe_maximum'}}
  (void)ck_pr_load_uint(&map->probe_maximum);
}

// Writer against reader (message passing): readers run at any time.
void ck_hs_set(struct ck_hs_map *map) {
  ck_pr_store_uint(&map->entries, 2);
  ck_pr_fence_store(); // expected-note {{'ck_hs_set' orders the store to 'ck_hs_map.entries' before the store to 'ck_hs_map.sequence'}} open-note {{'ck_hs_set' orders}}
  ck_pr_store_uint(&map->sequence, 2);
}

unsigned int ck_hs_get(struct ck_hs_map *map) {
  if (ck_pr_load_uint(&map->sequence) == 0)
    return 0;
  return ck_pr_load_uint(&map->entries); // expected-warning {{no barrier orders the load of 'ck_hs_map.sequence' before the load of 'ck_hs_map.entries' in 'ck_hs_get'; with 'ck_hs_set' this is scenario 3 (message passing)}} expected-note {{scenario 3}} open-warning {{in 'ck_hs_get'}} open-note {{scenario 3}}
}
