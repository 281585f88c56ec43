// Two `static` structures of one type in one unit are two instances: a
// reader that tests `acked.ready` and then reads `sent.data` has no
// pairing with the writer that publishes `sent.data` through
// `sent.ready`. Their fields had been named after the unit alone (the "@"
// of a static's key names its unit, and was taken for the one between a
// type and its instance), so every static of a type was one instance.
// Whether the address escapes (so that the fields are also the type's)
// or not, the two stay apart; the reader of the same flag still pairs.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DESCAPES -Xclang -verify
// RUN: %barrierpair %s -DSAME_FLAG -Xclang -verify=same
// RUN: %barrierpair %s -DSAME_FLAG -DESCAPES -Xclang -verify=same
// expected-no-diagnostics
#include "kernel.h"

struct flag {
  int ready;
  int data;
};

static struct flag sent, acked;

#ifdef ESCAPES
struct flag *flags[] = {&sent, &acked};

int any_ready(struct flag *flag) {
  return READ_ONCE(flag->ready);
}
#endif

void send(int value) {
  WRITE_ONCE(sent.data, value);
  smp_wmb(); // same-note {{'send' orders the store to 'sent.data' before the store to 'sent.ready' with 'smp_wmb()'}}
  WRITE_ONCE(sent.ready, 1);
}

int sent_data(void) {
  if (!READ_ONCE(sent.ready))
    return 0;
  smp_rmb();
  return READ_ONCE(sent.data);
}

int acked_then_data(void) {
#ifdef SAME_FLAG
  if (!READ_ONCE(sent.ready))
    return 0;
#else
  if (!READ_ONCE(acked.ready))
    return 0;
#endif
  return READ_ONCE(sent.data); // same-warning {{no barrier orders the load of 'sent.ready' before the load of 'sent.data' in 'acked_then_data'; with 'send' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                  same-note {{scenario 3}}
}
