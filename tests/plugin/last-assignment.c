// An access's address comes from what its pointer's last assignment before
// it read, where the code's structure shows one: a local reassigned from
// rcu_dereference() after an earlier lookup (the kernel's
// netlbl_domhsh_search_def()) depends on that load only, not on all that
// its earlier assignments read, which once crowded the dependency out.
//
// RUN: %barrierpair %s -Xclang -verify
// expected-no-diagnostics
#include "kernel.h"

#define rcu_dereference(p)                                                                         \
  ({                                                                                               \
    __typeof__(p) local_ = READ_ONCE(p);                                                           \
    local_;                                                                                        \
  })

struct entry {
  int valid;
};
struct entry *default_entry;
int key_a, key_b, key_c, key_d, key_e, key_f, key_g;
struct entry *search(int a, int b, int c, int d, int e, int f, int g);

void set_default(struct entry *e) {
  e->valid = 1;
  smp_store_release(&default_entry, e);
}

struct entry *lookup(void) {
  struct entry *entry;
  entry = search(READ_ONCE(key_a), READ_ONCE(key_b), READ_ONCE(key_c), READ_ONCE(key_d),
                 READ_ONCE(key_e), READ_ONCE(key_f), READ_ONCE(key_g));
  if (entry)
    return entry;
  entry = rcu_dereference(default_entry);
  if (entry && READ_ONCE(entry->valid))
    return entry;
  return 0;
}
