// A dependency orders a marked load before what depends on it, but it is
// not cumulative (the Linux-kernel memory model): it does not carry on a
// third function's store that the load saw.
//
// Two functions and a third's store (the article's scenario 4, LKMM's WRC
// with a control dependency): 'forward' sees 'ready' set by 'announce' and
// then stores 'relayed'; 'observe' may still read the old 'ready' after
// seeing 'relayed'. A barrier in 'forward' forbids it.
//
// A cycle of three functions (ISA2): 'produce' orders 'data' before
// 'ready' with a release, 'relay' passes it on by a control dependency,
// 'consume' reads through the pointer it gets. The release is not seen by
// 'consume', so the dependency in 'relay' is the link that breaks; a full
// barrier in 'produce' instead makes the whole chain ordered.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify=wrc,isa2
// RUN: %barrierpair %s -DFIXED -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DMB_FIRST -Xclang -verify=wrc
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
// expected-no-diagnostics
#include "kernel.h"

int ready;
int relayed;

void announce(void) {
  WRITE_ONCE(ready, 1);
}

void forward(void) {
  if (READ_ONCE(ready)) { // wrc-note {{'forward' depends on the value of 'ready' read here, but a dependency is not cumulative: 'ready' stored by another function and read here need not reach 'observe' before 'relayed' does (the Linux-kernel memory model allows it)}}
#ifdef FIXED
    smp_mb();
#endif
    WRITE_ONCE(relayed, 1); // wrc-warning {{only a dependency orders the load of 'ready' before the store to 'relayed' in 'forward'; with 'observe' this is scenario 4, which needs smp_mb() here}} \
                               wrc-note {{scenario 4 forbids r1 == 1 && r3 == 1 && r4 == 0: 'observe' could see 'relayed' stored by 'forward', which had read the new 'ready', and still read the old 'ready'}}
    // CHECK: fix-it:"{{.*}}dependencies.c":{[[@LINE-2]]:5-[[@LINE-2]]:5}:"smp_mb();\n    "
  }
}

int observe(void) {
  int seen = READ_ONCE(relayed);
  smp_rmb(); // wrc-note {{'observe' orders the load of 'relayed' before the load of 'ready' with 'smp_rmb()'}}
  return seen + READ_ONCE(ready);
}

int data;
int spare;
int go;
int *pointer = &spare;

void produce(void) {
  WRITE_ONCE(data, 1);
#if defined(FIXED) || defined(MB_FIRST)
  smp_mb();
  WRITE_ONCE(go, 1);
#else
  smp_store_release(&go, 1); // isa2-note {{'produce' orders the store to 'data' before the store to 'go' with 'smp_store_release()'}}
#endif
}

void relay(void) {
  if (READ_ONCE(go))
    WRITE_ONCE(pointer, &data); // isa2-warning {{only a dependency orders the load of 'go' before the store to 'pointer' in 'relay', a link on a cycle through 'consume' and 'produce' ('go' -> 'pointer' -> 'data' -> 'go'); this needs smp_mb() here}} \
                                   isa2-note {{a dependency is not cumulative: what 'relay' read of another function's stores need not reach the rest of a cycle through 3 functions before what it orders by the dependency (the Linux-kernel memory model allows it); a full barrier before it on the cycle, or one here, forbids it}}
  // CHECK: fix-it:"{{.*}}dependencies.c":{[[@LINE-2]]:5-[[@LINE-2]]:5}:"smp_mb();\n    "
}

int consume(void) {
  int *seen = READ_ONCE(pointer); // isa2-note {{'consume' orders the load of 'pointer' before the load of 'data', which depends on its value read with 'READ_ONCE()'}}
  return READ_ONCE(*seen);
}
