// A primitive file with errors: each is an error at its line and column, the
// compile fails, and nothing of the file is used.
//
// RUN: not %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/bad-primitives.def 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: not %barrierpair %s -fplugin-arg-barrierpair-primitives=%t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %barrierpair %s -fplugin-arg-barrierpair-primitives= 2>&1 | FileCheck %s --check-prefix=EMPTY
#include <urcu/arch.h>

void writer(int *message, int *ready) {
  *message = 1;
  cmm_smp_wmb();
  *ready = 1;
}

// CHECK: bad-primitives.def:4:22: error: unknown family 'MINES'; families: URCU, KERNEL, C11, GCC, MINE
// CHECK-NEXT: 4 | BP_PRIMITIVE(my_rmb, MINES, FENCE, RMB)
// CHECK-NEXT: {{^ +\| +\^$}}
// CHECK: bad-primitives.def:5:28: error: unknown operation 'FENSE'; operations: FENCE, LOAD, STORE, RMW, ACCESS, LOCK, UNLOCK, SPAWN, JOIN
// CHECK: bad-primitives.def:6:35: error: unknown ordering 'RELAXD'; orderings: COMPILER, RELAXED, RMB, WMB, MB, CONSUME, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST, PUBLISH, FROM_ARG, MEMBARRIER
// CHECK: bad-primitives.def:7:14: error: 'smp_mb' is already a built-in primitive: BP_PRIMITIVE(smp_mb, KERNEL, FENCE, MB)
// CHECK: bad-primitives.def:8:14: error: 'my_mb' is already a primitive: BP_PRIMITIVE(my_mb, MINE, FENCE, MB)
// CHECK: bad-primitives.def:9:23: error: expected ',' after the primitive's name, found 'MINE'
// CHECK: bad-primitives.def:10:11: error: family 'URCU' is already declared, as "liburcu" (cmm_smp_mb(), cmm_smp_rmb(), cmm_smp_wmb())
// CHECK: bad-primitives.def:11:11: error: family 'EMPTY': its name and spellings cannot be empty
// CHECK: bad-primitives.def:12:1: error: expected BP_PRIMITIVE(...), BP_FAMILY(...), BP_MARKING(...), BP_EXCLUSIVE(...) or BP_CONTRACT(...), found 'my_wmb'
// CHECK: bad-primitives.def:15:1: error: expected ')' after its ordering, found 'BP_PRIMITIVE'
// CHECK: bad-primitives.def:16:17: error: unterminated string
// CHECK: 11 errors generated.

// MISSING: error: barrierpair: cannot read primitive file '{{.*}}.missing': No such file or directory
// MISSING-NOT: warning:

// EMPTY: error: barrierpair: unknown plugin argument 'primitives='; valid arguments: {{.*}}, primitives=<file>
