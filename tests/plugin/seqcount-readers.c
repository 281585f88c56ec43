// missing-access-once: a sequence-count reader (a seqlock's read side)
// reads plainly on purpose. It reads the count with a marked load, orders
// its reads after it with a read barrier, orders them before a second read
// of the count with another, and goes round again when the count changed:
// a torn or stale value is thrown away. Neither its reads nor the writer's
// stores they race with need marking. A reader that reads once, with no
// second read of the count to go round on, keeps what it read: its plain
// read races with the writer's store, which must be marked for it too.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

struct stats {
  unsigned seq;
  unsigned long bytes;
};

void add_bytes(struct stats *stats, unsigned long bytes) {
  WRITE_ONCE(stats->seq, stats->seq + 1);
  smp_wmb();
  // expected-warning@+2 {{the store to 'stats.bytes' in 'add_bytes' is not marked, but it races with the load of 'stats.bytes' in 'peek_bytes'}}
  // expected-note@+1 {{scenario 12}}
  stats->bytes += bytes; // expected-note {{'add_bytes' stores 'stats.bytes' here}}
  smp_wmb(); // expected-note {{'add_bytes' orders the store to 'stats.bytes' before the store to 'stats.seq' with 'smp_wmb()'}}
  WRITE_ONCE(stats->seq, stats->seq + 1);
}

unsigned long read_bytes(struct stats *stats) {
  unsigned seq;
  unsigned long bytes;
  do {
    seq = READ_ONCE(stats->seq);
    smp_rmb();
    bytes = stats->bytes;
    smp_rmb();
  } while (READ_ONCE(stats->seq) != seq);
  return bytes;
}

unsigned long peek_bytes(struct stats *stats, unsigned *seq) {
  *seq = READ_ONCE(stats->seq);
  smp_rmb(); // expected-note {{'peek_bytes' orders the load of 'stats.seq' before the load of 'stats.bytes' with 'smp_rmb()'}}
  // expected-note@+3 {{'peek_bytes' loads 'stats.bytes' here}}
  // expected-warning@+2 {{the load of 'stats.bytes' in 'peek_bytes' is not marked, but it races with the store to 'stats.bytes' in 'add_bytes'; mark it: READ_ONCE(stats->bytes)}}
  // expected-note@+1 {{scenario}}
  return stats->bytes;
}
