// A publication (`e->valid = 1; smp_store_release(&default_v4, e)`) pairs
// only with reads of what it published: a reader that reaches an instance
// through a pointer loaded from another object (`default_v6`) reads what
// another publication handed over, whatever it read of `default_v4`
// before (the kernel's netlbl_domhsh_search_def() reads `valid` of the
// default entry of each family, one after the other). And for
// missing-access-once, a payload filled in before its publication races
// with no read that is under the check of the flag or that reaches its
// instance through a pointer the reader loaded. A read of an instance
// reached no such way (a global's, -DNAMED) still pairs.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNAMED -Xclang -verify=named -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"

struct entry {
  int valid;
};
struct entry *default_v4, *default_v6;

void set_default_v6(struct entry *e) {
  e->valid = 1;
  smp_store_release(&default_v6, e);
}

void set_default_v4(struct entry *e) {
  e->valid = 1;
  smp_store_release(&default_v4, e);
}

#ifdef NAMED
struct entry fallback;
#endif

int search_default(int family) {
  struct entry *e;
  if (family == 4) {
    e = READ_ONCE(default_v4);
    if (e && e->valid)
      return 4;
  }
  e = READ_ONCE(default_v6);
  if (e && e->valid)
    return 6;
#ifdef NAMED
  return e ? fallback.valid : 0; // named-warning {{no barrier orders the load of 'default_v6' before the load of 'fallback.valid' in 'search_default'; with 'set_default_v6' this is scenario 3 (message passing), which needs smp_rmb() here}}
#else
  return 0;
#endif
}
