// missing-access-once names a store that races: one in a function that
// may run at the same time as others (it has a barrier, a marked access, or
// a thread start names it). A store in a plain set-up helper (liburcu's
// alloc_split_items_count(), called on a table being built) races with
// nothing; the same store beside a barrier does.
//
// RUN: %barrierpair %s -Xclang -verify=marked -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DPLAIN_REPLACE -Xclang -verify=plain -Xclang -verify-ignore-unexpected=note
// plain-no-diagnostics
#include <stdlib.h>

struct counter {
  unsigned long add;
};
struct table {
  struct counter *split;
};

static void table_setup(struct table *t) { t->split = calloc(8, sizeof *t->split); }

struct table *table_new(void) {
  struct table *t = malloc(sizeof *t);
  if (t)
    table_setup(t);
  return t;
}

static void count_add(struct table *t, int cpu) {
  if (!t->split)
    return;
  __atomic_add_fetch(&t->split[cpu].add, 1, __ATOMIC_SEQ_CST);
}

void table_add(struct table *t, int cpu) {
  count_add(t, cpu);
  count_add(t, cpu + 1);
}

void table_add_twice(struct table *t, int cpu) {
  count_add(t, cpu);
  count_add(t, cpu + 2);
}

// The same shape, its pointer replaced by a function that orders memory.
struct table2 {
  struct counter *split;
};

// Both sides of the adders' pairing only load `split`: the race is with a
// third function's store, which counts only where its writer marks it (a
// plain one, -DPLAIN_REPLACE, says no reader runs against it).
void table2_replace(struct table2 *t, struct counter *split) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#ifdef PLAIN_REPLACE
  t->split = split;
#else
  __atomic_store_n(&t->split, split, __ATOMIC_RELAXED);
#endif
}

// Its count is returned, so that the read-modify-write's read is one the
// code uses (a read whose value is dropped claims no order).
static int count2_add(struct table2 *t, int cpu) {
  if (!t->split) // marked-warning {{the load of 'table2.split' in 'table2_add' (in its call of 'count2_add') is not marked, but it races with the store to 'table2.split' in 'table2_replace'}}
    return 0;
  return __atomic_add_fetch(&t->split[cpu].add, 1, __ATOMIC_SEQ_CST);
}

int table2_add(struct table2 *t, int cpu) {
  return count2_add(t, cpu) + count2_add(t, cpu + 1);
}

int table2_add_twice(struct table2 *t, int cpu) {
  return count2_add(t, cpu) + count2_add(t, cpu + 2);
}

// A field named by its type races only with a store that may reach the
// same instance: one made from a container of the same type. The shelves'
// adders reach `shelf.split` through a pointer to a shelf; the cupboard
// stores the split of its own embedded shelf, found from a cupboard, and
// no adder is handed that shelf here (the kernel's every `list_head.next`,
// embedded in unrelated structures).
struct shelf {
  struct counter *split;
};
struct cupboard {
  struct shelf shelf;
  int doors;
};

void cupboard_replace(struct cupboard *c, struct counter *split) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  c->shelf.split = split;
}

static int shelf_add(struct shelf *s, int cpu) {
  if (!s->split)
    return 0;
  return __atomic_add_fetch(&s->split[cpu].add, 1, __ATOMIC_SEQ_CST);
}

int shelves_add(struct shelf *s, int cpu) { return shelf_add(s, cpu) + shelf_add(s, cpu + 1); }

int shelves_add_twice(struct shelf *s, int cpu) { return shelf_add(s, cpu) + shelf_add(s, cpu + 2); }
