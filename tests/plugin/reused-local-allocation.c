// A local that first walks a list and then takes a new allocation (the
// kernel's ____ip_mc_inc_group(): `for_each_pmc_rtnl(in_dev, im) ...; im =
// kzalloc(...)`) names shared memory in the walk and fresh memory after the
// allocation: the set-up stores before rcu_assign_pointer() are nobody
// else's yet. Before, the walk's assignment made the local not fresh at
// all, and the set-up was reported against the timer that reads the list.
//
// The timer's helper walks the list in its own parameter when it was given
// no entry (igmpv3_send_report()'s `for_each_pmc_rcu(in_dev, pmc)`): in its
// inlined copy the parameter holds the argument and what the walk loaded,
// so the reads through it depend on the list's loads. Before, a parameter
// held only its argument, and the reads depended on nothing.
//
// A store through the local after the publication is still one
// (-DPUBLISH_FIRST): now that the local is known to hold the allocation
// there, it is reported as a store after publication.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DPUBLISH_FIRST -Xclang -verify=late
// expected-no-diagnostics
#include "kernel.h"
#include <stddef.h>
#include <stdlib.h>

#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define rcu_dereference(p) READ_ONCE(p)
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct spinlock {
  int raw;
};
void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);

struct timer {
  long expires;
};

struct device;

struct group {
  struct device *dev;
  struct group *next;
  int address, mode;
  struct spinlock lock;
  struct timer timer;
};

struct device {
  struct group *groups;
};

void join_group(struct device *dev, int address, int mode) {
  struct group *g;
  for (g = dev->groups; g; g = g->next)
    if (g->address == address)
      return;
  g = malloc(sizeof *g);
  if (!g)
    return;
  g->dev = dev;
  g->address = address;
#ifndef PUBLISH_FIRST
  g->mode = mode;
#endif
  g->next = dev->groups;
  rcu_assign_pointer(dev->groups, g);
#ifdef PUBLISH_FIRST
  g->mode = mode; // late-warning {{the store to 'group.mode' in 'join_group' comes after a pointer to its memory was stored where other threads find it; 'group_timer' may read 'group.mode' before it}}
#endif
}

static int report(struct device *dev, struct group *g) {
  int modes = 0;
  if (!g) {
    for (g = rcu_dereference(dev->groups); g; g = rcu_dereference(g->next)) {
      spin_lock(&g->lock);
      modes += g->mode; // late-note {{'group_timer' loads 'group.mode' here}}
      spin_unlock(&g->lock);
    }
  } else {
    modes = g->address;
  }
  return modes;
}

int group_timer(struct timer *t) {
  struct group *g = container_of(t, struct group, timer);
  return report(g->dev, g);
}
