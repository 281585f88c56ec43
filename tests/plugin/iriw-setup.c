// Scenario 0 (IRIW) needs two independent stores that other threads can
// see. A store into memory its function has just allocated and not yet
// published is set-up: the publication orders it before anyone reads it,
// so it is no third CPU's store (the kernel's INIT_HLIST_HEAD() of a new
// table against every hash-list reader).
//
// RUN: %barrierpair %s -Xclang -verify=setup
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DPUBLISHED -Xclang -verify=published -Xclang -verify-ignore-unexpected=note
// setup-no-diagnostics
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>

struct pair {
  int x, y;
};

struct pair *the_pair;

void pair_reader0(struct pair *p, int *r1, int *r2) {
  *r1 = CMM_LOAD_SHARED(p->x);
  cmm_smp_rmb(); // published-warning {{'cmm_smp_rmb()' is too weak to order the load of 'pair.x' before the load of 'pair.y' in 'pair_reader0'; with 'pair_reader1' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r2 = CMM_LOAD_SHARED(p->y);
}

void pair_reader1(struct pair *p, int *r3, int *r4) {
  *r3 = CMM_LOAD_SHARED(p->y);
  cmm_smp_rmb(); // published-warning {{'cmm_smp_rmb()' is too weak to order the load of 'pair.y' before the load of 'pair.x' in 'pair_reader1'; with 'pair_reader0' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r4 = CMM_LOAD_SHARED(p->x);
}

void pair_writer_x(struct pair *p) { CMM_STORE_SHARED(p->x, 1); }

#ifdef PUBLISHED
void pair_writer_y(struct pair *p) { CMM_STORE_SHARED(p->y, 1); }
#else
void pair_create(void) {
  struct pair *p = malloc(sizeof *p);
  if (!p)
    return;
  CMM_STORE_SHARED(p->y, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(the_pair, p);
}
#endif
