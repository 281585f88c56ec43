// C++ is not analysed: a clear error, never a crash.
//
// RUN: not %barrierpair %s 2>&1 | FileCheck %s
// RUN: not %barrierpair -x c++ %S/Inputs/dekker.c 2>&1 | FileCheck %s --check-prefix=FORCED
// CHECK: error: barrierpair analyses C only; '{{.*}}cxx-input.cpp' is compiled as C++ (remove -fplugin for it)
// FORCED: error: barrierpair analyses C only; '{{.*}}dekker.c' is compiled as C++
#include <atomic>

std::atomic<int> x, y;

template <typename T> struct holder { T value; };

int dekker0() {
  x.store(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  return y.load(std::memory_order_relaxed);
}
