// The kernel's seqcount, as it writes one (tests/Inputs/seqcount_helpers.h):
// the writer steps the count plainly (`s->sequence++` in
// write_seqcount_begin() and end(), inside what KCSAN treats as an atomic
// region), and the reader reads the count again in a helper three calls
// down before it goes round again when the count changed: its plain read of
// the payload needs no marking, and neither does the writer's count, which
// only such readers read. A reader that reads the count once keeps what it
// read: both races are reported. (The kernel's own reader reads the count
// again four calls down, past the depth lowering follows: its findings
// stay until per-function summaries.)
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DREAD_ONCE_ONLY -Xclang -verify=once
// expected-no-diagnostics
#include "seqcount_helpers.h"

struct stats {
  struct seqcount seq;
  unsigned long bytes;
};

struct stats totals;

void add_bytes(unsigned long bytes) {
  write_begin(&totals.seq);
  WRITE_ONCE(totals.bytes, totals.bytes + bytes); // once-note {{'add_bytes' stores 'totals.bytes' here}}
  write_end(&totals.seq);
}

#ifndef READ_ONCE_ONLY
unsigned long read_bytes(void) {
  unsigned seq;
  unsigned long bytes;
  do {
    seq = read_begin(&totals.seq);
    bytes = totals.bytes;
  } while (read_retry(&totals.seq, seq));
  return bytes;
}
#else
unsigned long peek_bytes(unsigned *seq) {
  *seq = read_begin(&totals.seq);
  return totals.bytes; // once-warning {{the load of 'totals.bytes' in 'peek_bytes' is not marked, but it races with the store to 'totals.bytes' in 'add_bytes'; mark it: READ_ONCE(totals.bytes), or load it only after checking 'totals.seq.sequence'}} once-note {{scenario 3 (message passing) forbids}}
}
// once-warning@seqcount_helpers.h:20 {{the store to 'totals.seq.sequence' in 'add_bytes' (in its call of 'write_end') is not marked, but it races with the load of 'totals.seq.sequence' in 'peek_bytes'; mark it with WRITE_ONCE()}}
// once-note@seqcount_helpers.h:20 {{scenario 12 (message passing) forbids}}
// once-note@seqcount_helpers.h:19 {{'add_bytes' orders the store to 'totals.bytes' before the store to 'totals.seq.sequence' with 'smp_wmb()' (in its call of 'write_end')}}
// once-note@seqcount_helpers.h:24 {{'peek_bytes' loads 'totals.seq.sequence' here}}
// once-note@seqcount_helpers.h:25 {{'peek_bytes' orders the load of 'totals.seq.sequence' before the load of 'totals.bytes' with 'smp_rmb()' (in its call of 'read_begin')}}
#endif
