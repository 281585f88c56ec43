// Lowering follows calls three deep, but a thin helper (a body of at most
// two statements, no loop) does not count: the kernel's layers of wrappers
// would otherwise use the depth up before the barrier at their bottom.
// `xfrm_get_spdinfo()` reads its thresholds under `read_seqbegin()` in a
// helper, and `read_seqretry()` reaches its `smp_rmb()` and its second
// read of the count four calls below that helper. Seen whole, the reader
// goes round again when the count changed, and its plain reads race with
// nothing. With the wrappers made thick (-DTHICK), the depth runs out
// before the second read of the count, and the plain reads are reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DTHICK -Xclang -verify=thick -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"

struct seqcount {
  unsigned sequence;
};

struct thresholds {
  struct seqcount lock;
  unsigned char lbits, rbits;
};

#ifdef THICK
#define PADDING                                                                                    \
  int padding = 0;                                                                                 \
  (void)padding;
#else
#define PADDING
#endif

static unsigned read_count_begin(const struct seqcount *s) {
  unsigned start = READ_ONCE(s->sequence);
  smp_rmb();
  return start;
}

static int read_count_recheck(const struct seqcount *s, unsigned start) {
  PADDING
  return READ_ONCE(s->sequence) != start;
}

static int read_count_retry(const struct seqcount *s, unsigned start) {
  PADDING
  smp_rmb();
  return read_count_recheck(s, start);
}

static int read_retry(const struct seqcount *s, unsigned start) {
  PADDING
  return read_count_retry(s, start);
}

static void get_thresholds(struct thresholds *t, unsigned char *lbits, unsigned char *rbits) {
  unsigned start;
  do {
    start = read_count_begin(&t->lock);
    *lbits = t->lbits; // thick-warning {{the load of 'thresholds.lbits' in 'report_thresholds' (in its call of 'get_thresholds') is not marked}}
    *rbits = t->rbits; // thick-warning {{the load of 'thresholds.rbits' in 'report_thresholds' (in its call of 'get_thresholds') is not marked}}
  } while (read_retry(&t->lock, start));
}

int report_thresholds(struct thresholds *t) {
  unsigned char lbits, rbits;
  get_thresholds(t, &lbits, &rbits);
  return lbits + rbits;
}

void set_thresholds(struct thresholds *t, unsigned char lbits, unsigned char rbits) {
  WRITE_ONCE(t->lock.sequence, t->lock.sequence + 1);
  smp_wmb();
  t->lbits = lbits; // thick-warning {{the store to 'thresholds.lbits' in 'set_thresholds' is not marked}}
  t->rbits = rbits; // thick-warning {{the store to 'thresholds.rbits' in 'set_thresholds' is not marked}}
  smp_wmb();
  WRITE_ONCE(t->lock.sequence, t->lock.sequence + 1);
}
