/* A sequence count as the kernel writes one (include/linux/seqlock.h): the
 * writer steps the count plainly, and the reader's second read of the count
 * sits in an inline helper below the reader. Used by
 * tests/plugin/seqcount-writer.c. */
#ifndef SEQCOUNT_HELPERS_H
#define SEQCOUNT_HELPERS_H
#include "kernel.h"

struct seqcount {
  unsigned sequence;
};

static inline void write_begin(struct seqcount *s) {
  s->sequence++;
  smp_wmb();
}

static inline void write_end(struct seqcount *s) {
  smp_wmb();
  s->sequence++;
}

static inline unsigned read_begin(const struct seqcount *s) {
  unsigned seq = READ_ONCE(s->sequence);
  smp_rmb();
  return seq;
}

static inline int sequence_changed(const struct seqcount *s, unsigned start) {
  return READ_ONCE(s->sequence) != start;
}

static inline int read_retry_ordered(const struct seqcount *s, unsigned start) {
  smp_rmb();
  return sequence_changed(s, start);
}

static inline int read_retry(const struct seqcount *s, unsigned start) {
  return read_retry_ordered(s, start);
}
#endif
