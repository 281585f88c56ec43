// Struct-field pairing: a single-producer/single-consumer ring. Objects are
// named by struct type and field, so `ring.head` through the global and
// `r->head` through a pointer are one object; `slots[]` collapses its elements.
//
// RUN: %barrierpair %s -Xclang -verify=ok
// RUN: %barrierpair %s -DBROKEN -Xclang -verify=broken
// RUN: %barrierpair %s -DBROKEN -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// ok-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

#define RING_SIZE 64

struct ring {
  unsigned head, tail;
  int slots[RING_SIZE];
};

static struct ring ring;

int produce(int value) {
  unsigned head = ring.head;
  if (head - CMM_LOAD_SHARED(ring.tail) == RING_SIZE)
    return 0;
  cmm_smp_mb(); // the slot may still be being read until tail moves past it
  ring.slots[head % RING_SIZE] = value;
  cmm_smp_wmb(); // broken-note {{'produce' orders the store to 'ring.slots[]' before the store to 'ring.head' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(ring.head, head + 1);
  return 1;
}

int consume(struct ring *r, int *value) {
  unsigned tail = r->tail;
  if (CMM_LOAD_SHARED(r->head) == tail)
    return 0;
#ifndef BROKEN
  cmm_smp_rmb();
#endif
  *value = r->slots[tail % RING_SIZE]; // broken-warning {{no barrier orders the load of 'ring.head' before the load of 'ring.slots[]' in 'consume'; with 'produce' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                          broken-note {{could see 'ring.head' set by 'produce' and still read the old 'ring.slots[]'}}
  // CHECK: fix-it:"{{.*}}ring-buffer.c":{[[@LINE-2]]:3-[[@LINE-2]]:3}:"cmm_smp_rmb();\n  "
  cmm_smp_mb();
  CMM_STORE_SHARED(r->tail, tail + 1);
  return 1;
}
