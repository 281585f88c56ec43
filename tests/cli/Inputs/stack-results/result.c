// Fills and reads a result: the value, then the flag, with no write
// barrier between, against a reader that orders its loads.
#include "result.h"

void result_fill(struct result *res, int value) {
  res->value = value;
  CMM_STORE_SHARED(res->ready, 1);
}

int result_read(struct result *res) {
  if (!CMM_LOAD_SHARED(res->ready))
    return -1;
  cmm_smp_rmb();
  return res->value;
}
