// A read or write barrier with nothing of its kind on one side orders
// nothing, partner or not.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
#include <urcu/arch.h>
#include <stdlib.h>
#include <urcu/system.h>

int a, b, c, d, e, f;

int wmb_between_loads(void) {
  int r1 = CMM_LOAD_SHARED(a);
  cmm_smp_wmb(); // expected-warning {{'cmm_smp_wmb()' orders only stores, but in 'wmb_between_loads' it has no store on one side: it stands between the load of 'a' and the load of 'b'; this needs cmm_smp_rmb() here}}
  // CHECK: fix-it:"{{.*}}wrong-kind.c":{[[@LINE-1]]:3-[[@LINE-1]]:16}:"cmm_smp_rmb()"
  return r1 + CMM_LOAD_SHARED(b);
}

int rmb_between_store_and_load(void) {
  CMM_STORE_SHARED(c, 1);
  cmm_smp_rmb(); // expected-warning {{'cmm_smp_rmb()' orders only loads, but in 'rmb_between_store_and_load' it has no load on one side: it stands between the store to 'c' and the load of 'd'; this needs cmm_smp_mb() here}}
  // CHECK: fix-it:"{{.*}}wrong-kind.c":{[[@LINE-1]]:3-[[@LINE-1]]:16}:"cmm_smp_mb()"
  return CMM_LOAD_SHARED(d);
}

// Quiet: a store on each side; and a barrier at the edge of a function,
// whose partner accesses may be in the caller.
void wmb_between_stores(void) {
  CMM_STORE_SHARED(e, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(f, 1);
}

void wmb_at_the_end(void) {
  int r = CMM_LOAD_SHARED(e);
  (void)r;
  cmm_smp_wmb();
}

// A structure filled in, then a wmb, then published by the caller: the
// stores into the fresh memory are no shared accesses (nobody else sees it
// yet), but they are what the wmb orders before the publication, so it is of
// the right kind (Concurrency Kit's ck_ht_map_create()).
struct table {
  int size;
  int *slots;
};

struct table *current_table;

static struct table *table_create(int size) {
  struct table *table = malloc(sizeof *table);
  if (!table)
    return NULL;
  table->size = size;
  table->slots = NULL;
  cmm_smp_wmb();
  return table;
}

void table_reset(int size) {
  int old = current_table ? CMM_LOAD_SHARED(current_table->size) : 0;
  struct table *table = table_create(size + old);
  if (table)
    CMM_STORE_SHARED(current_table, table);
}

// A wmb whose only accesses before it are the loads that decide whether the
// store after it runs: what it orders before the store are the caller's
// stores, as at a function's start (Concurrency Kit's ck_array_commit()).
// A load before it that decides nothing keeps the finding.
struct array {
  int *pending;
  int committed;
};

struct array shared_array;

void array_commit(void) {
  if (CMM_LOAD_SHARED(shared_array.pending) != NULL)
    return;
  cmm_smp_wmb();
  CMM_STORE_SHARED(shared_array.committed, 1);
}

int array_commit_after_a_read(void) {
  int seen = CMM_LOAD_SHARED(a);
  cmm_smp_wmb(); // expected-warning {{'cmm_smp_wmb()' orders only stores, but in 'array_commit_after_a_read' it has no store on one side: it stands between the load of 'a' and the store to 'shared_array.committed'}}
  // CHECK: fix-it:"{{.*}}wrong-kind.c":{[[@LINE-1]]:3-[[@LINE-1]]:16}:"cmm_smp_mb()"
  CMM_STORE_SHARED(shared_array.committed, 2);
  return seen;
}

// Stores the analysis names no object for are still stores a wmb orders:
// a buffer filled by memcpy() or by a helper it does not lower, or written
// through a parameter, before the index that publishes it (the kernel's
// kfifo: `memcpy(fifo->data + off, src, l); smp_wmb(); fifo->in += len;`).
// A local's own stores are not.
#include <string.h>

struct fifo {
  unsigned in;
  char *data;
};

static void fifo_copy_in(struct fifo *fifo, const char *source, unsigned length) {
  memcpy(fifo->data + CMM_LOAD_SHARED(fifo->in), source, length);
  cmm_smp_wmb();
}

void fifo_put(struct fifo *fifo, const char *source, unsigned length) {
  fifo_copy_in(fifo, source, length);
  CMM_STORE_SHARED(fifo->in, fifo->in + length);
}

void fill_buffer(char *buffer, unsigned length);

void fifo_fill(struct fifo *fifo, unsigned length) {
  fill_buffer(fifo->data, length);
  cmm_smp_wmb();
  CMM_STORE_SHARED(fifo->in, length);
}

void fifo_put_byte(struct fifo *fifo, char *slot, char value) {
  char *data = CMM_LOAD_SHARED(fifo->data);
  slot[0] = value;
  cmm_smp_wmb();
  CMM_STORE_SHARED(fifo->in, data != 0);
}

int fifo_local_then_wmb(struct fifo *fifo) {
  char scratch[4];
  scratch[0] = (char)CMM_LOAD_SHARED(fifo->in);
  cmm_smp_wmb(); // expected-warning {{'cmm_smp_wmb()' orders only stores, but in 'fifo_local_then_wmb' it has no store on one side: it stands between the load of 'fifo.in' and the store to 'fifo.in'}}
  CMM_STORE_SHARED(fifo->in, 0);
  return scratch[0];
}

// A compiler barrier inside another macro's body (the kernel's
// preempt_disable()) is that macro's, not a claim of an order between
// CPUs: the side has no barrier, and is judged as one without (its marked
// accesses race, so the barrier is missing). The same barrier written in
// the code is a barrier too weak, reported where it stands.
#define preempt_disable() cmm_barrier()

int seen_in, seen_out;

void note_in(void) {
  CMM_STORE_SHARED(seen_in, 1);
  cmm_smp_mb(); // expected-note 2 {{'note_in' orders the store to 'seen_in' before the store to 'seen_out' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(seen_out, 1);
}

int check_in(void) {
  int out = CMM_LOAD_SHARED(seen_out);
  preempt_disable();
  return out ? CMM_LOAD_SHARED(seen_in) : 0; // expected-warning {{no barrier orders the load of 'seen_out' before the load of 'seen_in' in 'check_in'; with 'note_in' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                            expected-note {{scenario 3}}
}

int check_in_written(void) {
  int out = CMM_LOAD_SHARED(seen_out);
  cmm_barrier(); // expected-warning {{'cmm_barrier()' is too weak to order the load of 'seen_out' before the load of 'seen_in' in 'check_in_written'; with 'note_in' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                    expected-note {{scenario 3}}
  return out ? CMM_LOAD_SHARED(seen_in) : 0;
}

// A helper's barrier is written for every caller (the kernel's
// write_sequnlock(): `smp_wmb(); s->sequence++;`): a caller that stores
// nothing in its section does not make it the wrong kind.
struct sequence {
  unsigned count;
};

struct sequence section_sequence;

static inline void section_end(struct sequence *s) {
  cmm_smp_wmb();
  s->count++;
}

int section_that_only_reads(void) {
  int seen = CMM_LOAD_SHARED(a);
  section_end(&section_sequence);
  return seen;
}

// A function whose code is not seen here may hold the stores the wmb
// orders (the kernel's queue_work() in a write section).
void log_value(int value);

void wmb_after_a_call(void) {
  int seen = CMM_LOAD_SHARED(a);
  log_value(seen);
  cmm_smp_wmb();
  CMM_STORE_SHARED(shared_array.committed, 3);
}
