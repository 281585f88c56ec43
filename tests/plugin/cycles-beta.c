// missing-barrier on a cycle of three functions (beta, off by default): every
// link ordered by a full barrier written in the code but one, whose function
// marks both accesses and orders them with nothing. LKMM allows the cycle
// (3.SB+mb+mb+once: Sometimes).
//
// RUN: %barrierpair %s -Xclang -verify=default
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=beta
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// default-no-diagnostics
#include "kernel.h"

int x, y, z;

void first(void) {
  WRITE_ONCE(x, 1);
  smp_mb(); // beta-note {{'first' orders the store to 'x' before the load of 'y' with 'smp_mb()'}}
  (void)READ_ONCE(y);
}

void second(void) {
  WRITE_ONCE(y, 1);
  smp_mb(); // beta-note {{'second' orders the store to 'y' before the load of 'z' with 'smp_mb()'}}
  (void)READ_ONCE(z);
}

void third(void) {
  WRITE_ONCE(z, 1);
  (void)READ_ONCE(x); // beta-warning {{no barrier orders the store to 'z' before the load of 'x' in 'third', a link on a cycle through 'first' and 'second' ('z' -> 'x' -> 'y' -> 'z'); this needs smp_mb() here}} \
                         beta-note {{a cycle through 3 functions needs a full barrier on every link; 'third' has none between its two accesses}}
}
// CHECK: fix-it:"{{.*}}cycles-beta.c":{28:3-28:3}:"smp_mb();\n  "

// The same cycle with the barrier in place: quiet.
int a, b, c;

void link_a(void) {
  WRITE_ONCE(a, 1);
  smp_mb();
  (void)READ_ONCE(b);
}

void link_b(void) {
  WRITE_ONCE(b, 1);
  smp_mb();
  (void)READ_ONCE(c);
}

void link_c(void) {
  WRITE_ONCE(c, 1);
  smp_mb();
  (void)READ_ONCE(a);
}

// A cycle whose other links are ordered by atomics' own orders, not by
// barriers written in the code: not a protocol ordered on purpose, quiet.
int p, q, r;

void release_link(void) {
  WRITE_ONCE(p, 1);
  (void)__atomic_exchange_n(&q, 1, __ATOMIC_SEQ_CST);
}

void release_link2(void) {
  WRITE_ONCE(q, 2);
  (void)__atomic_exchange_n(&r, 1, __ATOMIC_SEQ_CST);
}

void plain_link(void) {
  WRITE_ONCE(r, 2);
  (void)READ_ONCE(p);
}
