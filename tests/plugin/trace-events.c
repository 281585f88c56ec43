// A kernel trace event keeps nothing it is handed: its probes record the
// values into the trace buffer. A structure on the caller's stack handed to
// one stays the caller's own, so helpers that fill it in and read it back
// race with nobody (the kernel's `struct fib6_result res` in two route
// lookups, handed to trace_fib6_table_lookup()). Handed to a function that
// may keep it, it may be anyone's, and the helpers' accesses pair. The
// trace event's own code (a static key, its probes read under RCU) is the
// tracing's, not the caller's: it is not lowered.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DKEPT -Xclang -verify=kept
// expected-no-diagnostics
#include "kernel.h"
#include "linux/tracepoint.h"

struct result {
  int flags;
  int *table;
};

DECLARE_TRACE(route_lookup, TP_PROTO(struct result *res), TP_ARGS(res));

#ifdef KEPT
void keep_result(struct result *res);
#define report(res) keep_result(res)
#else
#define report(res) trace_route_lookup(res)
#endif

static inline void result_set(struct result *res, int flags, int *table) {
  WRITE_ONCE(res->flags, flags);
  smp_wmb(); // kept-note {{'route_update' orders the store to 'result.flags' before the store to 'result.table' with 'smp_wmb()' (in its call of 'result_set')}}
  WRITE_ONCE(res->table, table);
}

static inline int result_get(struct result *res) {
  int *table = READ_ONCE(res->table);
  // kept-warning@+2 {{no barrier orders the load of 'result.table' before the load of 'result.flags' in 'route_lookup' (in its call of 'result_get'); with 'route_update' this is scenario 3 (message passing), which needs smp_rmb() here}}
  // kept-note@+1 {{scenario 3 (message passing) forbids}}
  return table ? READ_ONCE(res->flags) : 0;
}

void route_update(int flags, int *table) {
  struct result res;
  result_set(&res, flags, table);
  report(&res);
}

int route_lookup(void) {
  struct result res = {0, 0};
  report(&res);
  return result_get(&res);
}
