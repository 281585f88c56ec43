// store-after-publication: a store into fresh memory after the marked store
// that publishes it (mimalloc 2.0.9's mi_arena_add() stores arena->id after
// the release store to mi_arenas[i]). Stores before the publication are the
// message's payload; a plain store of the pointer says nothing of other
// threads; memory handed to a function is that function's business.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include <stdatomic.h>
#include <stdlib.h>

struct arena {
  size_t start;
  int id;
};
static _Atomic(struct arena *) arenas[8];
static _Atomic(size_t) arena_count;

static void arena_add(struct arena *arena) {
  size_t i = atomic_fetch_add_explicit(&arena_count, 1, memory_order_acq_rel);
#ifdef FIXED
  arena->id = (int)i;
  atomic_store_explicit(&arenas[i], arena, memory_order_release);
#else
  atomic_store_explicit(&arenas[i], arena, memory_order_release);
  arena->id = (int)i; // expected-warning {{the store to 'arena.id' in 'manage' (in its call of 'arena_add') comes after a pointer to its memory was stored where other threads find it; 'find' may read 'arena.id' before it: store it before the publication}}
#endif
}

void manage(size_t start) {
  struct arena *arena = malloc(sizeof *arena);
  if (!arena)
    return;
  arena->start = start;
  arena_add(arena);
}

int find(size_t start) {
  size_t count = atomic_load_explicit(&arena_count, memory_order_acquire);
  for (size_t i = 0; i < count; i++) {
    struct arena *arena = atomic_load_explicit(&arenas[i], memory_order_acquire);
    if (arena && arena->start == start)
      return arena->id; // expected-note {{'find' loads 'arena.id' here}}
  }
  return -1;
}

// A plain store of the pointer: a list one owner (or a lock) keeps.
struct item {
  struct item *next;
  int value;
};
struct owner {
  struct item *items;
};

void owner_push(struct owner *owner, int value) {
  struct item *item = malloc(sizeof *item);
  if (!item)
    return;
  item->next = owner->items;
  owner->items = item;
  item->value = value;
  atomic_thread_fence(memory_order_seq_cst);
}

int owner_first(struct owner *owner) {
  atomic_thread_fence(memory_order_seq_cst);
  return owner->items ? owner->items->value : 0;
}
