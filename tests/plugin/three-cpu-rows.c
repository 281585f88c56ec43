// Rows where a third CPU's store takes part (IRIW, WRC, RWC) need a
// cumulative barrier, which a dependency, an acquire load or a compiler
// barrier is not (LKMM: IRIW+poonceonces and WRC+data+addr are allowed).
// A side that orders only that way means message passing with its own
// writers; where both sides of a three-CPU row do, each is only in the
// row because both read objects other functions write, and neither is
// reported. A side that writes a fence (`smp_rmb()`, `smp_mb()`) means the
// row, and its partner is told what it lacks.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DFENCED -Xclang -verify=fenced -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DWRC -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DWRC -DFENCED -Xclang -verify=wrc -Xclang -verify-ignore-unexpected=note
// expected-no-diagnostics
#include "kernel.h"

struct conf {
  int mode;
};
struct conf *current_conf;
int generation;

#ifndef WRC
// IRIW: two readers of two objects that two other functions write.
int read_conf_then_generation(void) {
  struct conf *c = smp_load_acquire(&current_conf); // fenced-warning {{'smp_load_acquire()' is too weak to order the load of 'current_conf' before the load of 'generation' in 'read_conf_then_generation'; with 'read_generation_then_conf' this is scenario 0 (IRIW), which needs smp_mb() here}}
  return c->mode + READ_ONCE(generation);
}

int read_generation_then_conf(void) {
  int g = READ_ONCE(generation);
#ifdef FENCED
  smp_mb();
#else
  barrier();
#endif
  struct conf *c = READ_ONCE(current_conf);
  return g + (c ? 1 : 0);
}

void publish_conf(struct conf *c) {
  c->mode = 1;
  smp_store_release(&current_conf, c);
}

void bump_generation(void) {
  WRITE_ONCE(generation, READ_ONCE(generation) + 1);
}
#else
// WRC: the relay reads what a third function stored and then stores a flag
// whose value depends on it; the observer reads the flag, then the first
// object.
int ready;

void relay(void) {
  int g = READ_ONCE(generation);
#ifdef FENCED
  smp_mb();
#endif
  WRITE_ONCE(ready, g);
}

int observe(void) {
  int r = READ_ONCE(ready);
  return r ? READ_ONCE(generation) : 0; // wrc-warning {{no barrier orders the load of 'ready' before the load of 'generation' in 'observe'; with 'relay' this is scenario 1, which needs smp_rmb() here}}
}

void bump_generation(void) {
  WRITE_ONCE(generation, 1);
}
#endif
