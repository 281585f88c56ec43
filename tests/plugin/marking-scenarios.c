// missing-access-once in litmus form, for every side of every scenario: the
// article's two CPUs with full barriers (so only marking is in question),
// one CPU's two accesses written plainly. The scenario number is the DESIGN's
// 4-bit encoding: 8 = CPU 0's access of x is a store, 4 = its access of y,
// 2 = CPU 1's access of y, 1 = its access of x. An object neither CPU stores
// gets its store from CPU 2 (x) or CPU 3 (y), as in the article's table; a
// plain load races with the partner's store, or with that third CPU's store
// when the partner only loads too. Where the plain access is a payload (the
// partner stores the other object after it, or this CPU loads that object
// first), the message adds that a check of the flag would let it stay plain.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSCENARIO=0 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu2 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu3 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSCENARIO=0 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu3 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu2 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=1 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu3 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=1 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu3 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="store to 'x'" -DRB="load of 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=2 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu2 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=2 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="load of 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu2 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=3 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=3 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="load of 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="store to 'x'" -DRB="load of 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=4 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu2 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="store to 'y'" -DRB="load of 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=4 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu2 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=5 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="store to 'y'" -DRB="load of 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=5 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="store to 'x'" -DRB="load of 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=6 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu2 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="store to 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=6 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu2 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=7 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="load of 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_LOAD_SHARED(x)" \
// RUN:     -DB="store to 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=7 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="store to 'x'" -DRB="load of 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=8 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="load of 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu3 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=8 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu3 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=9 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu3 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=9 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu3 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="store to 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=10 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="load of 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=10 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="load of 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=11 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="load of 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_LOAD_SHARED(y)"
// RUN: %barrierpair %s -DSCENARIO=11 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="load of 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="store to 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=12 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="load of 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="store to 'y'" -DRB="load of 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=12 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=13 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="store to 'y'" -DRB="load of 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=13 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="load of 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_LOAD_SHARED(y)" \
// RUN:     -DB="store to 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
// RUN: %barrierpair %s -DSCENARIO=14 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="load of 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="store to 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=14 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="load of 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_LOAD_SHARED(x)"
// RUN: %barrierpair %s -DSCENARIO=15 -DPLAIN=0 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu0 -DA="store to 'x'" -DRA="store to 'x'" -DFA=cpu1 -DFIXA="CMM_STORE_SHARED(x, 1)" \
// RUN:     -DB="store to 'y'" -DRB="store to 'y'" -DFB=cpu1 -DFIXB="CMM_STORE_SHARED(y, 1)"
// RUN: %barrierpair %s -DSCENARIO=15 -DPLAIN=1 -fdiagnostics-parseable-fixits 2>&1 \
// RUN:   | FileCheck %s -DCPU=cpu1 -DA="store to 'y'" -DRA="store to 'y'" -DFA=cpu0 -DFIXA="CMM_STORE_SHARED(y, 1)" \
// RUN:     -DB="store to 'x'" -DRB="store to 'x'" -DFB=cpu0 -DFIXB="CMM_STORE_SHARED(x, 1)"
//
// CHECK: warning: the [[A]] in '[[CPU]]' is not marked, but it races with the [[RA]] in '[[FA]]'; mark it: [[FIXA]]{{(, or (load|store) it only after checking '.')?}} [barrierpair-missing-access-once]
// CHECK: fix-it:"{{.*}}marking-scenarios.c":{{.*}}:"[[FIXA]]"
// CHECK: warning: the [[B]] in '[[CPU]]' is not marked, but it races with the [[RB]] in '[[FB]]'; mark it: [[FIXB]]{{(, or (load|store) it only after checking '.')?}} [barrierpair-missing-access-once]
// CHECK: fix-it:"{{.*}}marking-scenarios.c":{{.*}}:"[[FIXB]]"
// CHECK-NOT: warning:
#include <urcu/arch.h>
#include <urcu/system.h>

int x, y;
int r0, r1;

void cpu0(void) {
#if (SCENARIO & 8) && PLAIN == 0
  x = 1;
#elif (SCENARIO & 8)
  CMM_STORE_SHARED(x, 1);
#elif PLAIN == 0
  r0 = x;
#else
  r0 = CMM_LOAD_SHARED(x);
#endif
  cmm_smp_mb();
#if (SCENARIO & 4) && PLAIN == 0
  y = 1;
#elif (SCENARIO & 4)
  CMM_STORE_SHARED(y, 1);
#elif PLAIN == 0
  r0 = y;
#else
  r0 = CMM_LOAD_SHARED(y);
#endif
}

void cpu1(void) {
#if (SCENARIO & 2) && PLAIN == 1
  y = 1;
#elif (SCENARIO & 2)
  CMM_STORE_SHARED(y, 1);
#elif PLAIN == 1
  r1 = y;
#else
  r1 = CMM_LOAD_SHARED(y);
#endif
  cmm_smp_mb();
#if (SCENARIO & 1) && PLAIN == 1
  x = 1;
#elif (SCENARIO & 1)
  CMM_STORE_SHARED(x, 1);
#elif PLAIN == 1
  r1 = x;
#else
  r1 = CMM_LOAD_SHARED(x);
#endif
}

#if !(SCENARIO & 8) && !(SCENARIO & 1)
void cpu2(void) { CMM_STORE_SHARED(x, 1); }
#endif
#if !(SCENARIO & 4) && !(SCENARIO & 2)
void cpu3(void) { CMM_STORE_SHARED(y, 1); }
#endif
