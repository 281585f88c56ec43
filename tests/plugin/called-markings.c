// A marking that is a function (a relaxed load or store a library defines
// out of line, or inline with assembly) is the access: its object is the one
// its argument points to. The family's BP_MARKING spells the fix-it that
// marks a plain access.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/called-markings.def -Xclang -verify -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/called-markings.def -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s
int mylib_load(const int *p);
void mylib_store(int *p, int value);
void mylib_rmb(void);
void mylib_wmb(void);

int message, ready;

void writer(void) {
  mylib_store(&message, 1);
  mylib_wmb();
  mylib_store(&ready, 1);
}

int reader(void) {
  if (!mylib_load(&ready))
    return 0;
  // CHECK: fix-it:"{{.*}}called-markings.c":{[[#@LINE+1]]:3-[[#@LINE+1]]:3}:"mylib_rmb();\n  "
  return mylib_load(&message); // expected-warning {{no barrier orders the load of 'ready' before the load of 'message' in 'reader'; with 'writer' this is scenario 3 (message passing), which needs mylib_rmb() here}}
}

int count, count_ready;

void counter_writer(void) {
  // CHECK: fix-it:"{{.*}}called-markings.c":{[[#@LINE+1]]:3-[[#@LINE+1]]:12}:"mylib_store(&count, 2)"
  count = 2; // expected-warning {{the store to 'count' in 'counter_writer' is not marked, but it races with the load of 'count' in 'counter_reader'; mark it: mylib_store(&count, 2)}}
  mylib_wmb();
  mylib_store(&count_ready, 1);
}

int counter_reader(void) {
  int seen = mylib_load(&count_ready);
  mylib_rmb();
  return seen + mylib_load(&count);
}
