// An allocator that hands its memory on only on a path where it does not
// return it: the kernel's `fib6_info_release(rt); return ERR_PTR(err);` in
// ip6_route_info_create(). The route it returns on the other path is still
// only the caller's, which sets it up before it publishes it: no finding.
// Where the helper registers the route before it returns it
// (-DREGISTERED), the caller's set-up races with the reader.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DREGISTERED -Xclang -verify=registered
#include "kernel.h"

struct route {
  int metric;
  int flags;
};

void *kzalloc(unsigned long size, int flags);
void release_route(struct route *route);
void register_route(struct route *route);
struct route *table_head;

static struct route *route_create(int metric) {
  struct route *route = kzalloc(sizeof(*route), 0);
  if (!route)
    return 0;
  route->metric = metric;
  if (metric < 0)
    goto out;
#ifdef REGISTERED
  register_route(route);
#endif
  return route;
out:
  release_route(route);
  return (struct route *)-22L;
}

void route_add(int metric) {
  struct route *route = route_create(metric);
  if (!route || (unsigned long)route > -4096UL)
    return;
  route->flags = 1;
  // registered-note@+2 {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0: 'route_read' could see 'route.metric' set by 'route_add' and still read the old 'route.flags'}}
  // registered-warning@+1 {{no barrier orders the store to 'route.flags' before the store to 'route.metric' in 'route_add'; with 'route_read' this is scenario 12 (message passing), which needs smp_wmb() here}}
  WRITE_ONCE(route->metric, metric + 1);
  smp_store_release(&table_head, route);
}

int route_read(struct route *route) {
  int metric = READ_ONCE(route->metric);
  smp_rmb(); // registered-note {{'route_read' orders the load of 'route.metric' before the load of 'route.flags' with 'smp_rmb()'}}
  return route->flags + metric;
}

// expected-no-diagnostics
