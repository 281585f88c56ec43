// A plain access to an _Atomic object is sequentially consistent by the
// language's default. That orders the side it is in, but it is nobody's
// claim of an order: two sides ordered only that way form no pair, and a
// cycle through such a link is not checked. Where the other side wrote an
// order of its own, or none at all against a default side, the pair is
// still checked.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DEXPLICIT_WRITER -Xclang -verify=explicit
// RUN: %barrierpair %s -DCYCLE -Xclang -verify
// RUN: %barrierpair %s -DCYCLE -DCYCLE_CLAIMED -Xclang -verify=cycle
// expected-no-diagnostics
#include <stdatomic.h>
#include <urcu/arch.h>
#include <urcu/system.h>

#if !defined(EXPLICIT_WRITER) && !defined(CYCLE)
// mimalloc's ownership of a segment (2.0.9, src/segment.c): the owner
// thread counts its abandoned pages in plain fields and gives the segment
// up with a plain store to its _Atomic owner; its page free tests the owner
// the same way. Only the owner ever touches the counts.
struct segment {
  _Atomic(unsigned long) thread_id;
  int abandoned, used, spans;
};

void page_abandon(struct segment *segment) {
  segment->abandoned++;
  if (segment->used == segment->abandoned)
    segment->thread_id = 0;
}

static void page_clear(struct segment *segment) {
  int is_abandoned = segment->thread_id == 0;
  if (!is_abandoned)
    segment->spans++;
  segment->used--;
}

int page_free(struct segment *segment) {
  page_clear(segment);
  return segment->used == segment->abandoned;
}
#endif

#if defined(EXPLICIT_WRITER)
// Message passing: the reader's default order is enough for its side; the
// writer's relaxed stores order nothing.
_Atomic int ready, payload;

void writer(void) {
  atomic_store_explicit(&payload, 1, memory_order_relaxed);
  atomic_store_explicit(&ready, 1, memory_order_relaxed); // explicit-warning {{no barrier orders the store to 'payload' before the store to 'ready' in 'writer'; with 'reader' this is scenario 12 (message passing)}} \
      explicit-note {{scenario 12 (message passing) forbids}}
}

int reader(void) {
  while (!ready) // explicit-note {{'reader' orders the load of 'ready' before the load of 'payload' with a sequentially consistent atomic access}}
    ;
  return atomic_load_explicit(&payload, memory_order_relaxed);
}
#endif

#if defined(CYCLE)
// The article's three-CPU cycle with a wmb and an rmb: the middle link is
// ordered by a plain store to an _Atomic, or by a barrier written for it.
int x, y;
_Atomic int z;

void cpu0(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_wmb(); // cycle-warning {{'cmm_smp_wmb()' is not transitive}} \
                    cycle-note {{read and write barriers are not transitive}} \
                    cycle-note {{'cpu0' orders the store to 'x' before the store to 'y' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(y, 1);
}

void cpu1(int *r1) {
  *r1 = CMM_LOAD_SHARED(y);
#if defined(CYCLE_CLAIMED)
  cmm_smp_mb(); // cycle-note 2 {{'cpu1' orders the load of 'y' before the store to 'z' with 'cmm_smp_mb()'}}
#endif
  z = 1;
}

void cpu2(int *r3, int *r4) {
  *r3 = atomic_load_explicit(&z, memory_order_relaxed);
  cmm_smp_rmb(); // cycle-warning {{'cmm_smp_rmb()' is not transitive}} \
                    cycle-note {{read and write barriers are not transitive}} \
                    cycle-note {{'cpu2' orders the load of 'z' before the load of 'x' with 'cmm_smp_rmb()'}}
  *r4 = CMM_LOAD_SHARED(x);
}
#endif
