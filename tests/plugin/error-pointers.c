// A function that returns new memory or fails with an error code made a
// pointer (the kernel's ERR_PTR(-ENOMEM), as perf_event_alloc() or
// nfs_page_create() return it) is an allocator, whatever its name: it
// returns memory nobody else has seen (a signed integer made a pointer is
// nobody's memory, like NULL). Its caller's store into the
// new memory is set-up, no third CPU's store of IRIW (iriw-setup.c). An
// allocator that may hand out a shared spare instead (-DSHARED_SPARE) is
// no allocator: that store may be into memory others read.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=setup
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DCHOICE -Xclang -verify=setup
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSHARED_SPARE -Xclang -verify=shared -Xclang -verify-ignore-unexpected=note
// setup-no-diagnostics
#include <stdlib.h>
#include <urcu/arch.h>
#include <urcu/system.h>

static inline void *ERR_PTR(long error) { return (void *)error; }
static inline int IS_ERR(const void *pointer) {
  return (unsigned long)pointer >= (unsigned long)-4095;
}

struct pair {
  int x, y;
};

struct pair *the_pair;
struct pair *spare_pair; // one kept for when memory runs out

void pair_reader0(struct pair *p, int *r1, int *r2) {
  *r1 = CMM_LOAD_SHARED(p->x);
  cmm_smp_rmb(); // shared-warning {{'cmm_smp_rmb()' is too weak to order the load of 'pair.x' before the load of 'pair.y' in 'pair_reader0'; with 'pair_reader1' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r2 = CMM_LOAD_SHARED(p->y);
}

void pair_reader1(struct pair *p, int *r3, int *r4) {
  *r3 = CMM_LOAD_SHARED(p->y);
  cmm_smp_rmb(); // shared-warning {{'cmm_smp_rmb()' is too weak to order the load of 'pair.y' before the load of 'pair.x' in 'pair_reader1'; with 'pair_reader0' this is scenario 0 (IRIW), which needs cmm_smp_mb() here}}
  *r4 = CMM_LOAD_SHARED(p->x);
}

void pair_writer_x(struct pair *p) { CMM_STORE_SHARED(p->x, 1); }

static struct pair *pair_make(int y) {
  if (y < 0)
#ifdef SHARED_SPARE
    return spare_pair;
#else
    return ERR_PTR(-22);
#endif
  struct pair *p = malloc(sizeof *p);
#ifdef CHOICE
  return p ? p : ERR_PTR(-12); // either value is nobody else's
#else
  if (!p)
    return ERR_PTR(-12);
  return p;
#endif
}

void pair_create(int y) {
  struct pair *p = pair_make(y);
  if (IS_ERR(p))
    return;
  CMM_STORE_SHARED(p->y, y);
  cmm_smp_wmb();
  CMM_STORE_SHARED(the_pair, p);
}
