// A side that reads its second object only when some bits of its first
// load were zero (`if (state & FREE) continue;`, as Concurrency Kit's epoch
// scan reads a record's state into a local and tests it), where every
// store of that object sets those bits (the unregister clears the payload,
// a write barrier, then `state = FREE`; a retire stores FREE | DRAINING):
// the outcome needs the side to read such a store, or one after it, and
// then it skips the read. The pairing is no scenario. Where some store
// writes a value the test lets through (DRAINING alone), reading a store
// after the partner's may still go on, and the pairing stands.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DWHOLE_VALUE -Xclang -verify
// RUN: %barrierpair %s -DPASSING -Xclang -verify=passing
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define FREE 1U
#define DRAINING 2U
#ifdef PASSING
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
  CMM_STORE_SHARED(r->state, RETIRED);
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
