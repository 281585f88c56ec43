/* One source built once per flavour, as liburcu builds urcu.c: every
 * external name carries the flavour (FLAVOUR_writer), and each build hands
 * out records of its own. The writer publishes a record's payload with a
 * wmb; the reader of flavour `fast` forgets its rmb. */
#include <urcu/arch.h>
#include <urcu/system.h>

#include "record.h"

#define NAME2(flavour, name) flavour##_##name
#define NAME(flavour, name) NAME2(flavour, name)

void NAME(FLAVOUR, writer)(struct record *r) {
  r->payload = 42;
  cmm_smp_wmb();
  CMM_STORE_SHARED(r->ready, 1);
}

#ifdef FORGETFUL_READER
int NAME(FLAVOUR, reader)(struct record *r) {
  if (!CMM_LOAD_SHARED(r->ready))
    return 0;
  return CMM_LOAD_SHARED(r->payload);
}
#endif
