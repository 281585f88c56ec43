/* Declared pairings and kernel-style comments. */
#include <urcu/arch.h>
#include <urcu/system.h>

#include <barrierpair/annotate.h>

int x, y, m, n, p, q, u, v, w, z, s, t, o1, o2;

/* A pair the analysis sees: publish and consume. */
void publish(void) {
  CMM_STORE_SHARED(x, 1);
  cmm_smp_wmb(); /* Pairs with cmm_smp_rmb() in consume() */
  CMM_STORE_SHARED(y, 1);
}

int consume(void) {
  int seen = CMM_LOAD_SHARED(y);
  /* Pairs with the smp_wmb() in no_barrier(). */
  cmm_smp_rmb();
  return seen + CMM_LOAD_SHARED(x);
}

int no_barrier(void) { return CMM_LOAD_SHARED(x); }

/* A second pair, with a comment that names the first pair's writer. */
void publish_mn(void) {
  CMM_STORE_SHARED(m, 1);
  cmm_smp_wmb(); /* See the smp_rmb() in consume(). */
  CMM_STORE_SHARED(n, 1);
}

int consume_mn(void) {
  int seen = CMM_LOAD_SHARED(n);
  cmm_smp_rmb(); // pairs with publish_mn()
  return seen + CMM_LOAD_SHARED(m);
}

/* Partners the analysis cannot see (another program reads p and q, u and v). */
void declared(void) {
  CMM_STORE_SHARED(p, 1);
  cmm_smp_wmb(); /* barrierpair: pairs with consume */
  CMM_STORE_SHARED(q, 1);
}

void declared_macro(void) {
  CMM_STORE_SHARED(u, 1);
  BARRIERPAIR_PAIRS_WITH(consume_mn);
  cmm_smp_wmb();
  CMM_STORE_SHARED(v, 1);
}

void undeclared(void) {
  CMM_STORE_SHARED(w, 1);
  cmm_smp_wmb();
  CMM_STORE_SHARED(z, 1);
}

void declared_wrongly(void) {
  CMM_STORE_SHARED(s, 1);
  cmm_smp_wmb(); /* barrierpair: pairs with no_barrier */
  CMM_STORE_SHARED(t, 1);
}

void declared_elsewhere(void) {
  CMM_STORE_SHARED(o1, 1);
  cmm_smp_wmb(); /* barrierpair: pairs with reader_in_another_file */
  CMM_STORE_SHARED(o2, 1);
}

int beside_nothing(void) {
  /* barrierpair: pairs with consume */
  return 0;
}
