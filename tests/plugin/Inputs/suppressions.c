/* Suppressions: each function has a wrong-kind barrier (weak-barrier) the
 * same way; only the annotated ones are silenced. */
#include <urcu/arch.h>
#include <urcu/system.h>

#include <barrierpair/annotate.h>

int a, b, c, d, e, f, g, h, i, j, k, l;

int unannotated(void) {
  int r = CMM_LOAD_SHARED(a);
  cmm_smp_wmb();
  return r + CMM_LOAD_SHARED(b);
}

int above(void) {
  int r = CMM_LOAD_SHARED(c);
  /* barrierpair: ignore weak-barrier: only this thread writes c and d */
  cmm_smp_wmb();
  return r + CMM_LOAD_SHARED(d);
}

int beside(void) {
  int r = CMM_LOAD_SHARED(e);
  cmm_smp_wmb(); // barrierpair: ignore weak-barrier: only this thread writes e and f
  return r + CMM_LOAD_SHARED(f);
}

int macro_form(void) {
  int r = CMM_LOAD_SHARED(g);
  BARRIERPAIR_IGNORE("weak-barrier", "only this thread writes g and h");
  cmm_smp_wmb();
  return r + CMM_LOAD_SHARED(h);
}

int no_reason(void) {
  int r = CMM_LOAD_SHARED(i);
  // barrierpair: ignore weak-barrier
  cmm_smp_wmb();
  return r + CMM_LOAD_SHARED(j);
}

int unknown_rule(void) {
  int r = CMM_LOAD_SHARED(k);
  // barrierpair: ignore weak-barier: a typo silences nothing
  cmm_smp_wmb();
  return r + CMM_LOAD_SHARED(l);
}

int stale(void) {
  /* barrierpair: ignore weak-barrier: the barrier below moved away */
  return 0;
}
