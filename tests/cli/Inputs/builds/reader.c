/* A reader of its own source, built once: it pairs with every build's
 * writer, and misses its rmb against each. */
#include <urcu/arch.h>
#include <urcu/system.h>

#include "record.h"

int other_reader(struct record *r) {
  if (!CMM_LOAD_SHARED(r->ready))
    return 0;
  return CMM_LOAD_SHARED(r->payload);
}
