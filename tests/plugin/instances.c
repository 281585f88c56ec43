// Instances that the code tells apart, though one type names them: memory a
// function has just allocated is reached by others only through the pointer
// that publishes it, and a pointer read and then replaced names another
// instance than the one a reader finds after the replacement.
//
// RUN: %barrierpair %s -Xclang -verify
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

// ---- Fresh memory reached through its publication (mimalloc's arenas) ----

struct arena {
  size_t size;
  void *start;
};
static _Atomic(struct arena *) arenas[8];
static _Atomic(size_t) arena_count;

// The count goes up before the arena is published: a reader that sees the
// count reaches the arena only through arenas[i], whose release store and
// acquire load order its fields. No pair through the count.
static void add_arena(struct arena *arena) {
  size_t i = atomic_fetch_add_explicit(&arena_count, 1, memory_order_acq_rel);
  atomic_store_explicit(&arenas[i], arena, memory_order_release);
}

void manage(void *start, size_t size) {
  struct arena *arena = malloc(sizeof *arena);
  if (!arena)
    return;
  arena->size = size;
  arena->start = start;
  add_arena(arena);
}

void *find(size_t size) {
  size_t count = atomic_load_explicit(&arena_count, memory_order_relaxed);
  for (size_t i = 0; i < count; i++) {
    struct arena *arena = atomic_load_explicit(&arenas[i], memory_order_acquire);
    if (arena && arena->size >= size)
      return arena->start;
  }
  return NULL;
}

// The same, published with a relaxed store: the fields are the payload of
// the pointer, with no barrier before it (the count goes up after it).
struct arena *_Atomic loose_arenas[8];
static _Atomic(size_t) loose_count;

void manage_loosely(void *start, size_t size) {
  struct arena *arena = malloc(sizeof *arena);
  if (!arena)
    return;
  arena->size = size;
  arena->start = start;
  // expected-warning@+3 {{no barrier orders the store to 'arena.size' before the store to 'loose_arenas[]' in 'manage_loosely'; with 'find_loosely' this is scenario 12 (message passing), which needs atomic_thread_fence(memory_order_release) here (and 1 other pairing)}}
  // expected-note@+2 {{scenario 12}}
  size_t i = atomic_load_explicit(&loose_count, memory_order_relaxed);
  atomic_store_explicit(&loose_arenas[i], arena, memory_order_relaxed);
  atomic_store_explicit(&loose_count, i + 1, memory_order_release);
}

void *find_loosely(size_t size) {
  size_t count = atomic_load_explicit(&loose_count, memory_order_acquire);
  for (size_t i = 0; i < count; i++) {
    // expected-note@+1 {{'find_loosely' orders the load of 'loose_arenas[]' before the load of 'arena.size' with 'atomic_load_explicit()'}}
    struct arena *arena = atomic_load_explicit(&loose_arenas[i], memory_order_acquire);
    if (arena && arena->size >= size)
      return arena->start;
  }
  return NULL;
}

// ---- A pointer read, then replaced ----

struct value {
  size_t users;
  int data;
};
struct slot {
  struct value *value;
};

// It returns what is left, so that its read is one the code uses (a read
// whose value is dropped claims no order).
static int leave(struct value *value) {
  return __atomic_sub_fetch(&value->users, 1, __ATOMIC_RELEASE); // expected-note {{'set' loads 'value.users' here}} expected-note {{'clear' loads 'value.users' here}}
}

// Leaves the old value, then stores the new one: a clear() that finds the new
// pointer leaves the new value, not the one set() left. No cycle.
void set(struct slot *slot, struct value *value) {
  leave(slot->value);
  // expected-warning@+2 {{no barrier orders the load of 'value.users' before the store to 'slot.value' in 'set'; with 'leave_if_current' this is scenario 5 (inverse Dekker)}}
  // expected-note@+1 {{scenario 5}}
  slot->value = value;
}

void clear(struct slot *slot) {
  leave(slot->value);
  // expected-warning@+2 {{no barrier orders the load of 'value.users' before the store to 'slot.value' in 'clear'; with 'leave_if_current' this is scenario 5 (inverse Dekker)}}
  // expected-note@+1 {{scenario 5}}
  slot->value = NULL;
}

// Here the other side holds the value itself, whatever the slot holds: the
// two reach one instance, and set()'s release orders nothing before its
// store to the slot.
void leave_if_current(struct slot *slot, struct value *value) {
  // expected-note@+1 2 {{'leave_if_current' orders the load of 'slot.value' before the store to 'value.users' with '__atomic_load_n()'}}
  if (__atomic_load_n(&slot->value, __ATOMIC_ACQUIRE) == value)
    __atomic_sub_fetch(&value->users, 1, __ATOMIC_RELAXED);
}

// ---- A helper's code is one place, whichever caller it is lowered into ----

int flag, message;

void post(int value) {
  __atomic_store_n(&message, value, __ATOMIC_RELAXED);
  // expected-note@+1 {{'post' orders the store to 'message' before the store to 'flag' with '__atomic_store_n()'}}
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
}

static int take(void) {
  if (!__atomic_load_n(&flag, __ATOMIC_RELAXED))
    return -1;
  // One warning for both callers, the other one counted:
  // expected-warning@+2 {{no barrier orders the load of 'flag' before the load of 'message' in 'poll_once' (in its call of 'take'); with 'post' this is scenario 3 (message passing), which needs __atomic_thread_fence(__ATOMIC_ACQUIRE) here (and 1 other pairing)}}
  // expected-note@+1 {{scenario 3}}
  return __atomic_load_n(&message, __ATOMIC_RELAXED);
}

int poll_once(void) { return take(); }
int poll_twice(void) { return take() + take(); }

// ---- Fresh memory filled by helpers that keep it to themselves (jansson) ----

struct node {
  int kind;
  size_t refs;
};
struct list {
  struct node node;
  size_t used;
  struct node **items;
};
#define list_of(n) ((struct list *)((char *)(n) - offsetof(struct list, node)))
void destroy(struct node *node);
void *zone_alloc(size_t size);

static inline void node_put(struct node *node) {
  if (node && __atomic_sub_fetch(&node->refs, 1, __ATOMIC_RELEASE) == 0) // #put-release
    destroy(node);
}

struct node *list_new(void) {
  struct list *list = zone_alloc(sizeof *list);
  if (!list)
    return NULL;
  list->node.refs = 1;
  list->used = 0;
  list->items = zone_alloc(8 * sizeof *list->items);
  return &list->node;
}

// Stores the item into the list, and publishes neither the list nor (through
// container_of) its node.
int list_append(struct node *node, struct node *item) {
  if (!item)
    return -1;
  struct list *list = list_of(node);
  if (list->used == 8) {
    node_put(item);
    return -1;
  }
  list->items[list->used] = item;
  list->used++;
  return 0;
}

// The copy is the function's own until it returns it: filling it through
// list_append(), and dropping it on failure, pairs with nobody.
struct node *list_copy(struct node *from) {
  struct node *copy = list_new();
  if (!copy)
    return NULL;
  for (size_t i = 0; i < list_of(from)->used; i++)
    if (list_append(copy, list_of(from)->items[i])) {
      node_put(copy);
      return NULL;
    }
  return copy;
}

// Drops a reference to the list and, at the last one, the references it
// holds: reads the items after its release-only decrement (jansson's
// json_decref() and json_delete()).
void list_release(struct node *node) {
  if (__atomic_sub_fetch(&node->refs, 1, __ATOMIC_RELEASE) != 0)
    return;
  struct list *list = list_of(node);
  for (size_t i = 0; i < list->used; i++)
    node_put(list->items[i]); // expected-warning {{no barrier orders the load of 'node.refs' before the load of 'list.items[]' in 'list_release'; with 'list_copy_noting'}} expected-note {{scenario 3}} \
                                 expected-note@#put-release {{'list_copy_noting' orders the store to 'list.items[]' before the store to 'node.refs'}}
}

// A helper that records the list where others find it publishes it: the
// copy's items are stored into shared memory before the release.
struct node *last_touched;

int list_append_noting(struct node *node, struct node *item) {
  struct list *list = list_of(node);
  if (list->used == 8) {
    node_put(item);
    return -1;
  }
  last_touched = node;
  list->items[list->used] = item;
  return 0;
}

struct node *list_copy_noting(struct node *from) {
  struct node *copy = list_new();
  if (!copy)
    return NULL;
  if (list_append_noting(copy, from))
    return NULL;
  node_put(copy);
  return copy;
}
