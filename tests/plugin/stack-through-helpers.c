// A structure on a function's stack (the kernel's `struct fib6_result res`
// in ip6_pol_route_lookup(), or a `LIST_HEAD(ctxs)` that
// wq_unbound_cpumask_store() collects entries on) is that call's own. A
// helper lowered at the call and handed its address works on the caller's
// stack: its accesses are no shared object's, however the helper orders
// them, and pair with nothing. A helper handed a pointer the caller was
// given (-DHEAP) works on shared memory and pairs as any other.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DHEAP -Xclang -verify=heap
// expected-no-diagnostics
#include "kernel.h"

struct result {
  int nh;
  int flags;
};

static void set_result(struct result *res, int nh) {
  WRITE_ONCE(res->nh, nh);
  smp_wmb(); // heap-note {{'route_output' orders the store to 'result.nh' before the store to 'result.flags' with 'smp_wmb()' (in its call of 'set_result')}}
  WRITE_ONCE(res->flags, 1);
}

static int read_result(struct result *res) {
  if (!READ_ONCE(res->flags))
    return -1;
  return READ_ONCE(res->nh); // heap-warning {{no barrier orders the load of 'result.flags' before the load of 'result.nh' in 'route_input' (in its call of 'read_result'); with 'route_output' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    heap-note {{scenario 3}}
}

#ifdef HEAP
int route_output(struct result *res, int nh) {
  set_result(res, nh);
  return 0;
}

int route_input(struct result *res) {
  return read_result(res);
}
#else
int route_output(int nh) {
  struct result res = {0};
  set_result(&res, nh);
  return res.nh;
}

int route_input(void) {
  struct result res = {0};
  return read_result(&res);
}
#endif
