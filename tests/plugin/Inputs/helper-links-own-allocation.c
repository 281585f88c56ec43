// A station set up with a helper handed two pointers into it
// (helper-links-own-allocation.test).
#include "kernel.h"
#include <stdlib.h>

#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define rcu_dereference(p) READ_ONCE(p)

struct station;

struct link {
  struct station *station;
  int rate;
};

struct station {
  int local, address;
  struct link own_link;
  struct link *links[4];
};

#ifdef SHARED_LINK
struct link spare_link;
#endif

static void station_add_link(struct station *s, int id, struct link *link, int local) {
  link->station = s;
  s->local = local;
  rcu_assign_pointer(s->links[id], link);
}

struct station *station_alloc(int local, int address) {
  struct station *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
#ifdef SHARED_LINK
  station_add_link(s, 0, &spare_link, local);
#else
  station_add_link(s, 0, &s->own_link, local);
#endif
  s->address = address;
  return s;
}

int station_link_local(struct station *s, int id) {
  struct link *link = rcu_dereference(s->links[id]);
  if (!link)
    return -1;
  return s->local;
}
