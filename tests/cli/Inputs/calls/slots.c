// Helpers of the program that its other files call. claim_slot() orders
// (a compare-and-swap loop, fully ordered in liburcu); note_value() does
// not; claim_twice() orders through its call of claim_slot().
#include <urcu/uatomic.h>

unsigned long slot_bits;
int last_value;

int claim_slot(void) {
  unsigned long old = uatomic_read(&slot_bits);
  while (uatomic_cmpxchg(&slot_bits, old, old | 1) != old)
    old = uatomic_read(&slot_bits);
  return !(old & 1);
}

int claim_twice(void) {
  return claim_slot() && claim_slot();
}

void note_value(int value) {
  last_value = value;
}
