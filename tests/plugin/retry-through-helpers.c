// A sequence-count reader whose retry test is returned up through inlined
// helpers (the kernel's `read_seqretry()` returns what
// `do_read_seqcount_retry()` returns, which returns the comparison of the
// count read again): each helper adds its exit block between the second
// read of the count and the loop's back edge, and the reader still goes
// round again on it, so its plain reads race with nothing. With the second
// read of the count below the depth lowering follows calls (-DDEEP), the
// reader keeps what it read, and the plain reads are reported.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DDEEP -Xclang -verify=deep -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"

struct seqcount {
  unsigned sequence;
};

struct thresholds {
  struct seqcount lock;
  unsigned char lbits, rbits;
};

static unsigned read_count_begin(const struct seqcount *s) {
  unsigned start = READ_ONCE(s->sequence);
  smp_rmb();
  return start;
}

static int read_count_recheck(const struct seqcount *s, unsigned start) {
  return READ_ONCE(s->sequence) != start;
}

static int read_count_retry(const struct seqcount *s, unsigned start) {
  smp_rmb();
#ifdef DEEP
  return read_count_recheck(s, start);
#else
  return READ_ONCE(s->sequence) != start;
#endif
}

static int read_retry(const struct seqcount *s, unsigned start) {
  return read_count_retry(s, start);
}

static void get_thresholds(struct thresholds *t, unsigned char *lbits, unsigned char *rbits) {
  unsigned start;
  do {
    start = read_count_begin(&t->lock);
    *lbits = t->lbits; // deep-warning {{the load of 'thresholds.lbits' in 'report_thresholds' (in its call of 'get_thresholds') is not marked}}
    *rbits = t->rbits; // deep-warning {{the load of 'thresholds.rbits' in 'report_thresholds' (in its call of 'get_thresholds') is not marked}}
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
  t->lbits = lbits; // deep-warning {{the store to 'thresholds.lbits' in 'set_thresholds' is not marked}}
  t->rbits = rbits; // deep-warning {{the store to 'thresholds.rbits' in 'set_thresholds' is not marked}}
  smp_wmb();
  WRITE_ONCE(t->lock.sequence, t->lock.sequence + 1);
}
