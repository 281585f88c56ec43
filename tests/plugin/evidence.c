// Pairing from evidence: what a barrier's window holds, which functions
// count as racing, instances of globals, writers serialised elsewhere, and
// the strength of a C11 read-modify-write.
//
// RUN: %barrierpair %s -Xclang -verify -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DMARKED_VISITS -Xclang -verify=expected,marked -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DMARKED_RESET -Xclang -verify=expected,reset -Xclang -verify-ignore-unexpected=note
#include <stdatomic.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

// ---- A function with no barrier, no marked access, no thread start: it
// takes part in nothing, though it touches both objects in the other order.
int data, ready;

void publish(int value) {
  data = value;
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}

int debug_dump(void) {
  return ready + data; // plain reads: no evidence that this races
}

// ---- A window ends at the next barrier: `first` and `last` are not
// ordered by one barrier, so nothing pairs them with `far_reader`.
int first, middle, last;

void two_windows(void) {
  CMM_STORE_SHARED(first, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(middle, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(last, 1);
}

int far_reader(void) {
  int seen = CMM_LOAD_SHARED(last);
  cmm_smp_rmb();
  return seen + CMM_LOAD_SHARED(first);
}

// ---- Two instances of one struct type reached as globals are two
// objects: the writer of `a` and the reader of `b` do not pair.
struct mailbox {
  int message, flag;
};
struct mailbox a, b;

void send_a(void) {
  a.message = 1;
  cmm_smp_wmb(); // expected-note {{'send_a' orders the store to 'a.message' before the store to 'a.flag' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(a.flag, 1);
}

int peek_b(void) {
  int flag = CMM_LOAD_SHARED(b.flag);
  return flag ? CMM_LOAD_SHARED(b.message) : 0; // no rmb, but nothing sends on b
}

// The same instance still pairs.
int peek_a(void) {
  int flag = CMM_LOAD_SHARED(a.flag);
  return flag ? CMM_LOAD_SHARED(a.message) : 0; // expected-warning {{no barrier orders the load of 'a.flag' before the load of 'a.message' in 'peek_a'; with 'send_a' this is scenario 3}} \
                                               expected-note {{could see 'a.flag' set by 'send_a'}}
}

// ---- Two writers of `config` and `version` that read `config` plainly:
// the single-writer design of an updater that a lock outside serialises.
int config, version;

void update_config(int value) {
  int old = config;
  CMM_STORE_SHARED(config, old + value);
  cmm_smp_wmb();
  CMM_STORE_SHARED(version, 1);
}

void reset_config(void) {
  CMM_STORE_SHARED(version, 0);
  cmm_smp_wmb();
  if (config)
    CMM_STORE_SHARED(config, 0);
}

// ---- Two writers that both store `visits` plainly (mimalloc's abandon and
// reclaim of a segment, each done by the thread that owns it): on one
// instance they never run at once, or the program would race whatever its
// barriers, so they pair with nothing. One writer that marks its store
// says that the two do race, and the other's plain store must be marked.
struct segment {
  int visits;
  struct segment *next;
};

void abandon(struct segment *s) {
  s->visits = 1; // marked-warning {{the store to 'segment.visits' in 'abandon' is not marked, but it races with the store to 'segment.visits' in 'reclaim'}}
  cmm_smp_wmb();
  CMM_STORE_SHARED(s->next, NULL);
}

void reclaim(struct segment *s) {
  CMM_STORE_SHARED(s->next, s);
  cmm_smp_wmb();
#ifdef MARKED_VISITS
  CMM_STORE_SHARED(s->visits, 0);
#else
  s->visits = 0;
#endif
}

// ---- The same for a race: the owner's count of a segment, read and
// decremented plainly by `page_free` and reset plainly by `reclaim_owned` (the
// thread that owns the segment next), never changes in both at once; a
// reader that only loads it still races with both. A reset that is marked
// says it races with the decrement.
struct owned {
  int used;
  _Atomic int owner;
};

void page_free(struct owned *s) {
  if (atomic_load(&s->owner) != 0)
    return;
  // expected-warning@+2 {{the store to 'owned.used' in 'page_free' is not marked, but it races with the load of 'owned.used' in 'page_abandon'}}
  // reset-warning@+1 {{the load of 'owned.used' in 'page_free' is not marked, but it races with the store to 'owned.used' in 'reclaim_owned'}}
  s->used--;
}

void page_abandon(struct owned *s) {
  if (s->used == 1) // expected-warning {{the load of 'owned.used' in 'page_abandon' is not marked, but it races with the store to 'owned.used' in}}
    atomic_store(&s->owner, 0);
}

void reclaim_owned(struct owned *s) {
  atomic_store(&s->owner, 1);
#ifdef MARKED_RESET
  __atomic_store_n(&s->used, 0, __ATOMIC_RELAXED);
#else
  s->used = 0; // expected-warning {{the store to 'owned.used' in 'reclaim_owned' is not marked, but it races with the load of 'owned.used' in 'page_abandon'}}
#endif
}

// ---- A C11 sequentially consistent read-modify-write is acquire and
// release on itself: it does not order its own store before a later relaxed
// load (QEMU's smp_mb__after_rmw() fix). liburcu's uatomic_xchg() is a full
// barrier.
int event, work;

void finish_work(void) {
  __atomic_store_n(&work, 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST); // expected-note {{'finish_work' orders the store to 'work' before the load of 'event'}}
  (void)__atomic_load_n(&event, __ATOMIC_RELAXED);
}

int wait_for_work(void) {
  __atomic_fetch_or(&event, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&work, __ATOMIC_RELAXED); // expected-warning {{no barrier orders the store to 'event' before the load of 'work' in 'wait_for_work'; with 'finish_work' this is scenario 10 (Dekker)}} \
                                                      expected-note {{scenario 10 (Dekker) forbids}}
}

int other_event, other_work;

void finish_other_work(void) {
  CMM_STORE_SHARED(other_work, 1);
  cmm_smp_mb();
  (void)CMM_LOAD_SHARED(other_event);
}

int wait_for_other_work(void) {
  uatomic_xchg(&other_event, 1);
  return CMM_LOAD_SHARED(other_work);
}

// ---- A compiler barrier where the order was meant is a barrier too weak:
// the warning is at it, and the fix-it puts the full barrier in its place.
int door, bell;

void ring_bell(void) {
  CMM_STORE_SHARED(bell, 1);
  cmm_smp_mb(); // expected-note {{'ring_bell' orders the store to 'bell' before the load of 'door'}}
  (void)CMM_LOAD_SHARED(door);
}

int open_door(void) {
  CMM_STORE_SHARED(door, 1);
  cmm_barrier(); // expected-warning {{'cmm_barrier()' is too weak to order the store to 'door' before the load of 'bell' in 'open_door'; with 'ring_bell' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                    expected-note {{scenario 10 (Dekker) forbids}}
  return CMM_LOAD_SHARED(bell);
}
