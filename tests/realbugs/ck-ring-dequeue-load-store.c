// Concurrency Kit, include/ck_ring.h: commit c7945fe3a781 ("ck_ring:
// stricter barriers for RMO and ck_ring_valid fix.").
//
// The single consumer copies a slot out of the ring and then advances
// c_head, which tells the producer that the slot may be overwritten. Between
// the copy and the store of c_head it had ck_pr_fence_store(), which orders
// only the copy's stores (to the caller's buffer, which the compiler may
// elide), not its loads from the slot: on RMO the producer could overwrite
// the slot before the consumer had read it. Load then store against the
// producer's load of c_head and (under a check of it, a control dependency)
// store to the slot: scenario 5. The fix uses ck_pr_fence_load_store(). The
// analyzer must report weak-barrier at the ck_pr_fence_store() of
// '_ck_ring_dequeue_sc' (load of 'ck_ring_buffer.value' before the store to
// 'ck_ring.c_head'; the same fence leaves the load of 'ck_ring.p_tail'
// unordered, and one warning may name either), paired with
// '_ck_ring_enqueue_sp'. The producer's side is ordered by its control
// dependency, and the slot's accesses are made only after checking the
// indices, so the fixed version is quiet. The
// reduction copies one pointer-sized slot by assignment where CK uses
// memcpy().
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/ck.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/ck_pr.h"

struct ck_ring {
  unsigned int c_head;
  char pad[60];
  unsigned int p_tail;
  unsigned int size, mask;
};

struct ck_ring_buffer {
  void *value;
};

bool _ck_ring_enqueue_sp(struct ck_ring *ring, struct ck_ring_buffer *buffer, void *entry) {
  unsigned int consumer = ck_pr_load_uint(&ring->c_head); // before-note {{'_ck_ring_enqueue_sp' orders the load of 'ck_ring.c_head' before the store to 'ck_ring_buffer.value', which depends on its value read with 'ck_pr_load_uint()'}}
  unsigned int producer = ring->p_tail;
  if (((producer + 1) & ring->mask) == (consumer & ring->mask))
    return false;
  buffer[producer & ring->mask].value = entry;
  ck_pr_fence_store();
  ck_pr_store_uint(&ring->p_tail, producer + 1);
  return true;
}

bool _ck_ring_dequeue_sc(struct ck_ring *ring, const struct ck_ring_buffer *buffer, void **target) {
  unsigned int consumer = ring->c_head;
  unsigned int producer = ck_pr_load_uint(&ring->p_tail);
  if (consumer == producer)
    return false;
  ck_pr_fence_load();
  *target = buffer[consumer & ring->mask].value;
#ifdef FIXED
  ck_pr_fence_load_store();
#else
  ck_pr_fence_store(); // before-warning-re {{'ck_pr_fence_store()' is too weak to order the load of 'ck_ring{{(_buffer.value|.p_tail)}}' before the store to 'ck_ring.c_head' in '_ck_ring_dequeue_sc'; with '_ck_ring_enqueue_sp' this is scenario 5}} \
                          before-note {{scenario 5}}
#endif
  ck_pr_store_uint(&ring->c_head, consumer + 1);
  return true;
}
