// A helper of the unit that only hands its pointer back under another type
// (the kernel's `ireq = inet_rsk(req)`, `sk_daddr_set(req_to_sk(req), ...)`
// in cookie_v4_check()) names the memory it was handed: a request just
// allocated is still the allocating function's through those names, and
// its set-up pairs with nothing until it is handed over; nor does a helper
// that names it so publish it (inet_init_csk_locks(sk) in inet_create()).
// Handed over first (-DEARLY), the same stores race with the reader that
// reaches the request.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DEARLY -Xclang -verify=early
// expected-no-diagnostics
#include "kernel.h"

struct options {
  int length;
};
struct request {
  int mss;
};
struct inet_request {
  struct request req;
  int port, lock;
  struct options *options;
};

struct request *request_alloc(void);
void queue_request(struct request *req);

static inline struct inet_request *inet_rsk(struct request *req) {
  return (struct inet_request *)req;
}
static inline struct request *req_of(struct inet_request *ireq) { return &ireq->req; }
static inline void set_mss(struct request *req, int mss) { req->mss = mss; }
// keeps the request to itself, though it names it through inet_rsk()
static inline void init_lock(struct request *req) {
  struct inet_request *ireq = inet_rsk(req);
  ireq->lock = 0;
}

void make_request(int port, struct options *options) {
  struct request *req = request_alloc();
  if (!req)
    return;
#ifdef EARLY
  queue_request(req);
#endif
  init_lock(req);
  struct inet_request *ireq = inet_rsk(req);
  ireq->port = port;
  set_mss(req_of(inet_rsk(req)), 1460);
  WRITE_ONCE(ireq->options, options); // early-warning {{no barrier orders the store to 'inet_request.port' before the store to 'inet_request.options' in 'make_request'; with 'route_request' this is scenario 12 (message passing), which needs smp_wmb() here}} \
                                         early-note {{scenario 12 (message passing) forbids r3 == 1 && r4 == 0}}
#ifndef EARLY
  queue_request(req);
#endif
}

int route_request(struct inet_request *ireq) {
  struct options *options = smp_load_acquire(&ireq->options); // early-note {{'route_request' orders the load of 'inet_request.options' before the load of 'inet_request.port' with 'smp_load_acquire()'}}
  return ireq->port + (options ? options->length : 0);
}
