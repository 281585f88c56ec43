// A side that reads its second object only when some bits of its first
// load were zero (`if (state & FREE) continue;`, as Concurrency Kit's epoch
// scan reads a record's state into a local and tests it), where every
// store of that object sets those bits (the unregister clears the payload,
// a write barrier, then `state = FREE`; a retire stores FREE | DRAINING):
// the outcome needs the side to read such a store, or one after it, and
// then it skips the read. The pairing is no scenario. Where some store
// writes a value the test lets through (DRAINING alone), reading a store
// after the partner's may still go on, and the pairing stands. An atomic
// OR of other bits (liburcu's call_rcu: `uatomic_or(&flags, PAUSE)` beside
// the thread's `STOPPED`) leaves the tested bits as it read them, so it
// lets nothing through (-DOTHER_BITS); a load and a store that set it may
// write back a word read before the partner's store, and does
// (-DPLAIN_OTHER_BITS).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DWHOLE_VALUE -Xclang -verify
// RUN: %barrierpair %s -DPASSING -Xclang -verify=passing
// RUN: %barrierpair %s -DOTHER_BITS -Xclang -verify
// RUN: %barrierpair %s -DPLAIN_OTHER_BITS -Xclang -verify=passing
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define FREE 1U
#define DRAINING 2U
#if defined(PASSING) || defined(OTHER_BITS) || defined(PLAIN_OTHER_BITS)
#define RETIRED DRAINING
#else
#define RETIRED (FREE | DRAINING)
#endif

struct record {
  unsigned int state;
  unsigned int active;
};

void record_unregister(struct record *r) {
  CMM_STORE_SHARED(r->active, 0);
  cmm_smp_wmb(); // passing-note {{'record_unregister' orders the store to 'record.active' before the store to 'record.state' with 'cmm_smp_wmb()'}}
  CMM_STORE_SHARED(r->state, FREE);
}

void record_retire(struct record *r) {
#if defined(OTHER_BITS)
  uatomic_or(&r->state, RETIRED);
#elif defined(PLAIN_OTHER_BITS)
  CMM_STORE_SHARED(r->state, CMM_LOAD_SHARED(r->state) | RETIRED);
#else
  CMM_STORE_SHARED(r->state, RETIRED);
#endif
}

unsigned int record_scan(struct record *records, unsigned int count) {
  unsigned int busy = 0;
  for (unsigned int i = 0; i < count; i++) {
    unsigned int state;
    state = uatomic_read(&records[i].state);
#ifdef WHOLE_VALUE
    if (state)
      continue;
#else
    if (state & FREE)
      continue;
#endif
    busy += uatomic_read(&records[i].active); // passing-warning {{no barrier orders the load of 'record.state' before the load of 'record.active' in 'record_scan'; with 'record_unregister' this is scenario 3 (message passing), which needs cmm_smp_rmb() here}} \
                                                 passing-note {{scenario 3 (message passing) forbids}}
  }
  return busy;
}
