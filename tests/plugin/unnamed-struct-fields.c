// A field whose type is a structure with no name (the kernel's `struct
// sock` holds `struct { atomic_t rmem_alloc; ... } sk_backlog;`) is named
// through the field of that type: `sock.backlog.rmem_alloc.counter`, also
// where a helper reaches it through its parameter. Left unnamed, the
// access fell back to the type of what it reached, `atomic_t.counter`,
// one object for every atomic_t of the program: a socket's memory count
// paired with its count of drops. The reader that reads the memory count
// (-DSAME) is a pairing, reported with the count's name.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DSAME -Xclang -verify=same
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

typedef struct {
  int counter;
} atomic_t;

static inline int atomic_read(const atomic_t *v) {
  return CMM_LOAD_SHARED(v->counter); // same-warning {{no barrier orders the load of 'sock.rcvbuf' before the load of 'sock.backlog.rmem_alloc.counter' in 'memory_in_use' (in its call of 'atomic_read'); with 'reset' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                         same-note {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0: 'memory_in_use' could see 'sock.rcvbuf' set by 'reset' and still read the old 'sock.backlog.rmem_alloc.counter'}}
}

static inline void atomic_set(atomic_t *v, int i) {
  CMM_STORE_SHARED(v->counter, i);
}

struct sock {
  struct {
    atomic_t rmem_alloc;
    int len;
  } backlog;
  struct {
    atomic_t drops;
  } stats;
  int rcvbuf;
};

void reset(struct sock *sk, int limit) {
  atomic_set(&sk->backlog.rmem_alloc, 0);
  cmm_smp_wmb(); // same-note {{'reset' orders the store to 'sock.backlog.rmem_alloc.counter' before the store to 'sock.rcvbuf' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(sk->rcvbuf, limit);
}

int memory_in_use(struct sock *sk) {
  if (!CMM_LOAD_SHARED(sk->rcvbuf)) // same-note {{'memory_in_use' loads 'sock.rcvbuf' here, before the load of 'sock.backlog.rmem_alloc.counter' with no barrier between}}
    return 0;
#ifdef SAME
  return atomic_read(&sk->backlog.rmem_alloc);
#else
  return atomic_read(&sk->stats.drops);
#endif
}
