// missing-access-once: a reader that reaches the payload through the very
// pointer it loaded from the flag depends on that load, as much as a read
// under a check of the flag does. The writer builds a group, links it into
// a member's list under a lock (so the group is no longer private: its
// set-up is not exempt as an unpublished object's), fills it in and then
// publishes it with rcu_assign_pointer(); the reader loads the group with
// rcu_dereference() and reads its fields plainly, under six checks of its
// own settings. Those checks fill the read's guards (BP_GUARDS_MAX), so
// only the read's address sources still name the flag (the kernel's
// nexthop_is_multipath(), `rcu_dereference_rtnl(nh->nh_grp)->is_multipath`,
// inlined into fib6_info_hw_flags_set() under the route's checks, against
// nexthop_create_group()). Before the address sources counted, the read was
// reported; strict marking still reports it: the pairing forms, and only
// the exemption keeps the default run quiet.
//
// A writer that also changes an instance it finds through the flag, one
// published before (-DCHANGE_FOUND: the kernel's ipip6_tunnel_add_prl()
// sets `flags` of an entry it found in the list, and of a new one before
// publishing it), makes no set-up of that store: the read races with it,
// and the finding names it.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DCHANGE_FOUND -Xclang -verify=found
// RUN: %barrierpair %s -fplugin-arg-barrierpair-strict-marking -Xclang -verify=strict -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"
#include <stdlib.h>

#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define rcu_dereference(p) READ_ONCE(p)

struct spinlock {
  int raw;
};
void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);

struct member {
  struct group *groups;
};

struct group {
  struct group *next_of_member;
  int multipath, weight;
};

struct nexthop {
  struct group *grp;
};

struct settings {
  int notify, compat, offload, trap, fail, family;
};

static struct spinlock members_lock;

int group_create(struct nexthop *nh, struct member *m, int weight) {
#ifdef CHANGE_FOUND
  struct group *found = nh->grp;
  if (found && found->weight == weight) {
    found->multipath = 1; // found-note {{'group_create' stores 'group.multipath' here}}
    return 0;
  }
#endif
  struct group *g = malloc(sizeof *g);
  if (!g)
    return -1;
  spin_lock(&members_lock);
  g->next_of_member = m->groups;
  m->groups = g;
  spin_unlock(&members_lock);
  g->weight = weight;
  g->multipath = 1; // strict-warning {{the store to 'group.multipath' in 'group_create' is not marked, but it races with the load of 'group.multipath' in 'route_flags'}}
  rcu_assign_pointer(nh->grp, g); // found-note {{'group_create' orders the store to 'group.multipath' before the store to 'nexthop.grp' with 'rcu_assign_pointer()'}}
  return 0;
}

int route_flags(struct nexthop *nh, const struct settings *s) {
  if (s->notify && s->compat && s->offload && s->trap && s->fail && s->family) {
    struct group *g = rcu_dereference(nh->grp);
    return g->multipath; // strict-warning {{the load of 'group.multipath' in 'route_flags' is not marked, but it races with the store to 'group.multipath' in 'group_create'}} \
                            found-warning {{the load of 'group.multipath' in 'route_flags' is not marked, but it races with the store to 'group.multipath' in 'group_create'; mark it: CMM_LOAD_SHARED(g->multipath) [barrierpair-missing-access-once]}} \
                            found-note {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0}}
  }
  return 0;
}
