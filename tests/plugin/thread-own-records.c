// A record a thread reaches through its own thread-local pointer (liburcu-bp
// hands each reader a slot of its registry arena and keeps the slot's
// address in a __thread variable) is the thread's own instance: its plain
// reads of its own counter race with no store of its own. A slot reached
// through the registry may be any thread's.
//
// RUN: %barrierpair %s -Xclang -verify
#include <urcu/arch.h>
#include <urcu/system.h>

struct slot {
  unsigned long ctr;
  struct slot *next;
};

static __thread struct slot *own_slot;
static struct slot *registry;
static int handed;

void enter(void) { CMM_STORE_SHARED(own_slot->ctr, own_slot->ctr + 1); } // expected-note {{'enter' stores 'slot.ctr' here}}

// Two threads, each reading its own slot's counter around a hand-off: two
// instances, no race, no pairing.
unsigned long hand_off(void) {
  unsigned long nesting = own_slot->ctr;
  cmm_smp_mb(); // expected-note {{'hand_off' orders the load of 'slot.ctr' before the store to 'handed' with 'cmm_smp_mb()'}}
  CMM_STORE_SHARED(handed, 1);
  return nesting;
}

unsigned long take_over(void) {
  if (!CMM_LOAD_SHARED(handed))
    return 0;
  cmm_smp_mb();
  return own_slot->ctr;
}

// The first registered slot is any thread's: its plain read races with
// enter()'s store.
unsigned long take_over_first(void) {
  if (!CMM_LOAD_SHARED(handed))
    return 0;
  cmm_smp_mb();
  struct slot *first = CMM_LOAD_SHARED(registry);
  return first->ctr; // expected-warning {{the load of 'slot.ctr' in 'take_over_first' is not marked, but it races with the store to 'slot.ctr' in 'enter'}} \
                     expected-note {{scenario 1 forbids r1 == 1 && r2 == 0 && r3 == 1}}
}
