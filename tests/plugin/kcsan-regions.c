// The kernel's seqcount sections are regions whose accesses its race
// detector (KCSAN) takes as marked: a write section between
// kcsan_nestable_atomic_begin() and _end(), in the seqcount's own inline
// helpers, and a read section from kcsan_atomic_next(KCSAN_SEQLOCK_REGION_MAX)
// until kcsan_atomic_next(0), where the reader decides to retry. A reader
// that copies a setting under the seqcount and a writer that changes it
// under its lock race by design: no finding, even where the retry's own
// read of the count is out of sight (another file's, or deeper than
// lowering follows calls, as xfrm_get_spdinfo()'s). A reader that opens
// no region (-DNO_KCSAN) reads plainly, and its reads are reported; the
// writer's stores, in their section, are not.
// A section whose start is deeper than lowering follows calls (-DDEEP_BEGIN:
// write_seqlock()'s kcsan_nestable_atomic_begin() is four calls down from
// xfrm_set_spdinfo(), its end three) still closes where its end is seen:
// the count stepped right before the end, in the helper that ends it, is
// the section's, and needs no marking.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DNO_KCSAN -Xclang -verify=plain
// RUN: %barrierpair %s -DDEEP_BEGIN -Xclang -verify
#include "kernel.h"

#define KCSAN_SEQLOCK_REGION_MAX 1000
static inline void kcsan_nestable_atomic_begin(void) {}
static inline void kcsan_nestable_atomic_end(void) {}
static inline void kcsan_atomic_next(int n) {}

typedef struct {
  unsigned sequence;
} seqcount_t;
typedef struct spinlock {
  int raw;
} spinlock_t;
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);

static inline void write_seqcount_begin(seqcount_t *s) {
  kcsan_nestable_atomic_begin();
  s->sequence++;
  smp_wmb();
}

#ifdef DEEP_BEGIN
static inline void write_seqcount_begin_nested(seqcount_t *s) { write_seqcount_begin(s); }
static inline void write_seqcount_begin_checked(seqcount_t *s) { write_seqcount_begin_nested(s); }
static inline void write_seqlock_begin(seqcount_t *s) { write_seqcount_begin_checked(s); }
#endif

static inline void write_seqcount_end(seqcount_t *s) {
  // plain-note@+2 {{'threshold_set' orders the store to 'policy.lbits' before the store to 'policy.seq.sequence' with 'smp_wmb()' (in its call of 'write_seqcount_end')}}
  // plain-note@+1 {{'threshold_set' orders the store to 'policy.rbits' before the store to 'policy.seq.sequence' with 'smp_wmb()' (in its call of 'write_seqcount_end')}}
  smp_wmb();
  s->sequence++;
  kcsan_nestable_atomic_end();
}

static inline unsigned read_seqcount_begin(const seqcount_t *s) {
  unsigned start;
  while ((start = READ_ONCE(s->sequence)) & 1)
    ;
  smp_rmb();
#ifndef NO_KCSAN
  kcsan_atomic_next(KCSAN_SEQLOCK_REGION_MAX);
#endif
  return start;
}

// In another file: its own read of the count is not seen here.
int read_seqcount_retry(const seqcount_t *s, unsigned start);

struct threshold {
  spinlock_t lock;
  seqcount_t seq;
  unsigned char lbits;
  unsigned char rbits;
};

struct threshold policy;

void threshold_set(unsigned char lbits, unsigned char rbits) {
  spin_lock(&policy.lock);
#ifdef DEEP_BEGIN
  write_seqlock_begin(&policy.seq);
#else
  write_seqcount_begin(&policy.seq);
#endif
  policy.lbits = lbits; // plain-note {{'threshold_set' stores 'policy.lbits' here}}
  policy.rbits = rbits; // plain-note {{'threshold_set' stores 'policy.rbits' here}}
  write_seqcount_end(&policy.seq);
  spin_unlock(&policy.lock);
}

int threshold_get(unsigned char *lbits, unsigned char *rbits) {
  unsigned start;
  do {
    start = read_seqcount_begin(&policy.seq);
    // plain-warning@+2 {{the load of 'policy.lbits' in 'threshold_get' is not marked, but it races with the store to 'policy.lbits' in 'threshold_set'}}
    // plain-note@+1 {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0: 'threshold_get' could see 'policy.seq.sequence' set by 'threshold_set' and still read the old 'policy.lbits'}}
    *lbits = policy.lbits;
    // plain-warning@+2 {{the load of 'policy.rbits' in 'threshold_get' is not marked, but it races with the store to 'policy.rbits' in 'threshold_set'}}
    // plain-note@+1 {{scenario 3 (message passing) forbids r1 == 1 && r2 == 0: 'threshold_get' could see 'policy.seq.sequence' set by 'threshold_set' and still read the old 'policy.rbits'}}
    *rbits = policy.rbits;
  } while (read_seqcount_retry(&policy.seq, start));
  return 0;
}

// expected-no-diagnostics
