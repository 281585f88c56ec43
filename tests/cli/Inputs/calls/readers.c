// Readers of message passing whose two loads have a call of a function of
// another file between them.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int message, ready;
int claim_slot(void);
int claim_twice(void);
void note_value(int value);

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}

// The call orders, in a way this file does not show: no claim.
int reader_claiming(void) {
  if (!CMM_LOAD_SHARED(ready))
    return -1;
  claim_slot();
  return CMM_LOAD_SHARED(message);
}

// The same through a call of a call.
int reader_claiming_twice(void) {
  if (!CMM_LOAD_SHARED(ready))
    return -1;
  claim_twice();
  return CMM_LOAD_SHARED(message);
}

// A call of a function that orders nothing: the rmb is missing.
int reader_noting(void) {
  int flag = CMM_LOAD_SHARED(ready);
  note_value(flag);
  return flag ? CMM_LOAD_SHARED(message) : -1;
}
