// Input of precompiled-header.test: message passing whose writer misses its
// barrier, through the header's macros.
int message, ready;

void writer(void) {
  PUBLISH(message, 1);
  PUBLISH(ready, 1);
}

int reader(void) {
  assert(PEEK(ready) >= 0);
  if (!PEEK(ready))
    return 0;
  cmm_smp_rmb();
  return PEEK(message);
}
