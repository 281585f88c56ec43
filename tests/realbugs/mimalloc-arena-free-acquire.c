// mimalloc, src/arena.c: commit 6bd591d675d3 ("fix tsan errors"), released
// in 1.8.2 and 2.1.2.
//
// An arena is set up in memory fresh from the OS and then published with a
// release store into the global array `mi_arenas`. Freeing a block looked its
// arena up with a relaxed load of that array and went on to read the arena's
// fields (its field count, its committed bitmap): the load of the array
// before the loads through the pointer it gave, against the set-up's stores
// then release store (scenario 3, message passing). C11 orders nothing after
// a relaxed load, so a free on another thread could read the arena's fields
// before their initialisation. The fix loads the pointer with
// mi_atomic_load_ptr_acquire(), as the allocation path already did. The
// analyzer must report missing-barrier in '_mi_arena_free' for the load of
// 'mi_arenas[]' before the load of an arena field, paired with
// 'mi_manage_os_memory'; the fixed version is quiet. mimalloc's atomics are
// C11's under its own names (include/mimalloc-atomic.h); the reduction
// spells them the same way.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#define mi_atomic_load_ptr_relaxed(tp, p) (tp *)atomic_load_explicit(p, memory_order_relaxed)
#define mi_atomic_load_ptr_acquire(tp, p) (tp *)atomic_load_explicit(p, memory_order_acquire)
#define mi_atomic_store_ptr_release(tp, p, x) atomic_store_explicit(p, (tp *)(x), memory_order_release)
#define mi_atomic_increment_acq_rel(p) atomic_fetch_add_explicit(p, 1, memory_order_acq_rel)

#define MI_MAX_ARENAS 64

typedef struct mi_arena_s {
  size_t field_count;
  bool allow_decommit;
  size_t *blocks_committed;
  size_t blocks_inuse[1];
} mi_arena_t;

static _Atomic(mi_arena_t *) mi_arenas[MI_MAX_ARENAS];
static _Atomic(size_t) mi_arena_count;

void decommit(size_t *bitmap, size_t fields, size_t index);

static bool mi_arena_add(mi_arena_t *arena) {
  size_t i = mi_atomic_increment_acq_rel(&mi_arena_count);
  if (i >= MI_MAX_ARENAS)
    return false;
  mi_atomic_store_ptr_release(mi_arena_t, &mi_arenas[i], arena); // before-note {{'mi_manage_os_memory' orders the store to 'mi_arena_s.field_count' before the store to 'mi_arenas[]' with 'atomic_store_explicit()' (in its call of 'mi_arena_add')}} \
                                                                   before-note {{the store to 'mi_arena_s.allow_decommit' before the store to 'mi_arenas[]'}} \
                                                                   before-note {{the store to 'mi_arena_s.blocks_committed' before the store to 'mi_arenas[]'}}
  return true;
}

bool mi_manage_os_memory(size_t fields, bool is_committed) {
  mi_arena_t *arena = calloc(1, sizeof(mi_arena_t) + 3 * fields * sizeof(size_t));
  if (arena == NULL)
    return false;
  arena->field_count = fields;
  arena->allow_decommit = !is_committed;
  arena->blocks_committed = arena->allow_decommit ? &arena->blocks_inuse[2 * fields] : NULL;
  return mi_arena_add(arena);
}

void _mi_arena_free(size_t arena_idx, size_t bitmap_idx) {
#ifdef FIXED
  mi_arena_t *arena = mi_atomic_load_ptr_acquire(mi_arena_t, &mi_arenas[arena_idx]);
#else
  mi_arena_t *arena = mi_atomic_load_ptr_relaxed(mi_arena_t, &mi_arenas[arena_idx]);
#endif
  if (arena == NULL)
    return;
  if (arena->field_count <= bitmap_idx / 64) // before-warning {{no barrier orders the load of 'mi_arenas[]' before the load of 'mi_arena_s.field_count' in '_mi_arena_free'; with 'mi_manage_os_memory' this is scenario 3 (message passing), which needs atomic_thread_fence(memory_order_acquire) here}} \
                                              before-note {{scenario 3 (message passing) forbids}}
    return;
  // Each field read through the pointer is one more pairing of the same
  // missing acquire.
  if (arena->allow_decommit && arena->blocks_committed != NULL) // before-warning {{the load of 'mi_arenas[]' before the load of 'mi_arena_s.allow_decommit'}} \
                                                                   before-warning {{the load of 'mi_arenas[]' before the load of 'mi_arena_s.blocks_committed'}} \
                                                                   before-note 2 {{scenario 3 (message passing) forbids}}
    decommit(arena->blocks_committed, arena->field_count, bitmap_idx);
}
