// A library's contract with its callers (BP_CONTRACT in a primitive file,
// as primitives.def states liburcu's read side): a function keeps it when
// some path has a barrier strong enough between its entry and its first
// access of the contract's kind (ENTRY), or between its last one and its
// return (EXIT). Each order, kept and broken; the nested read lock that
// skips the barrier on one path, and the membarrier scheme's reader side
// whose fallback full barrier is gone. Without the contracts, no finding.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contracts.def -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=open
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/contracts.def -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIX
// open-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>

int a0, a1, b0, b1, c0, c1, d0, d1, e0, e1, f0, f1, g0, g1;

void entry_full_kept(void) {
  cmm_smp_mb();
  (void)CMM_LOAD_SHARED(a0);
  CMM_STORE_SHARED(a1, 1);
}

void entry_full_broken(void) {
  (void)CMM_LOAD_SHARED(b0); // expected-warning {{no barrier in 'entry_full_broken' orders the load of 'b0' after its caller's earlier accesses, but its contract says its caller's earlier loads and stores come before its own (BP_CONTRACT(entry_full_broken, ENTRY, MB)); this needs cmm_smp_mb() before it}}
  cmm_smp_mb();
  CMM_STORE_SHARED(b1, 1);
}

struct reader {
  unsigned long nest, ctr;
};
static __thread struct reader me;
unsigned long gp_ctr;
int has_membarrier;

void unlock_kept(void) {
  unsigned long nest = me.nest;
  cmm_smp_mb();
  CMM_STORE_SHARED(me.ctr, nest - 1);
}

void unlock_by_release_store(void) {
  __atomic_store_n(&c0, 0, __ATOMIC_RELEASE);
}

void unlock_after_acquire(void) {
  (void)__atomic_load_n(&c1, __ATOMIC_ACQUIRE);
  // An acquire orders its own load before what follows, not the caller's
  // accesses before the store.
  CMM_STORE_SHARED(d0, 0); // expected-warning {{no barrier in 'unlock_after_acquire' orders the store to 'd0' after its caller's earlier accesses, but its contract says its caller's earlier loads and stores come before its stores (BP_CONTRACT(unlock_after_acquire, ENTRY, RELEASE))}}
}

void publish_kept(void *p) {
  cmm_smp_wmb();
  CMM_STORE_SHARED(d1, 1);
}

void publish_with_rmb(void) {
  cmm_smp_rmb(); // expected-note {{'publish_with_rmb' has only 'cmm_smp_rmb()' on the way, which is not enough}}
  CMM_STORE_SHARED(e0, 1); // expected-warning {{no barrier in 'publish_with_rmb' orders the store to 'e0' after its caller's earlier accesses, but its contract says its caller's earlier stores come before its stores (BP_CONTRACT(publish_with_rmb, ENTRY, WMB)); this needs cmm_smp_wmb() before it}}
}

int consume_kept(void) {
  cmm_smp_rmb();
  return CMM_LOAD_SHARED(e1);
}

// A nested lock skips the barrier: the outermost one has it.
void lock_nested(void) {
  unsigned long nest = me.nest;
  if (!nest) {
    CMM_STORE_SHARED(me.ctr, CMM_LOAD_SHARED(gp_ctr));
    cmm_smp_mb();
  } else {
    CMM_STORE_SHARED(me.nest, nest + 1);
  }
}

void lock_nested_broken(void) {
  unsigned long nest = me.nest;
  if (!nest) {
    CMM_STORE_SHARED(me.ctr, CMM_LOAD_SHARED(gp_ctr));
  } else {
    // the last store written of those the paths from the return meet
    CMM_STORE_SHARED(me.nest, nest + 1); // expected-warning {{no barrier in 'lock_nested_broken' orders the store to 'reader.nest' before its caller's later accesses, but its contract says its loads and stores come before its caller's later ones (BP_CONTRACT(lock_nested_broken, EXIT, MB)); this needs cmm_smp_mb() after it}}
  }
}

static inline void reader_barrier(void) {
  if (has_membarrier)
    cmm_barrier();
  else
    cmm_smp_mb();
}

static inline void reader_barrier_broken(void) {
  if (has_membarrier)
    cmm_barrier(); // expected-note {{'lock_membarrier_broken' has only 'cmm_barrier()' (in its call of 'reader_barrier_broken') on the way, which is not enough}}
}

void lock_membarrier(void) {
  CMM_STORE_SHARED(me.ctr, CMM_LOAD_SHARED(gp_ctr));
  reader_barrier();
}

void lock_membarrier_broken(void) {
  CMM_STORE_SHARED(me.ctr, CMM_LOAD_SHARED(gp_ctr)); // expected-warning {{no barrier in 'lock_membarrier_broken' orders the store to 'reader.ctr' before its caller's later accesses}}
  reader_barrier_broken();
}

int take_acquire(void) {
  return __atomic_load_n(&f0, __ATOMIC_ACQUIRE);
}

int take_relaxed(void) {
  return CMM_LOAD_SHARED(f1); // expected-warning {{no barrier in 'take_relaxed' orders the load of 'f1' before its caller's later accesses, but its contract says its loads come before its caller's later loads and stores (BP_CONTRACT(take_relaxed, EXIT, ACQUIRE)); this needs cmm_smp_mb() after it}}
}

int drain_kept(void) {
  int v = CMM_LOAD_SHARED(g0);
  cmm_smp_rmb();
  return v;
}

void flush_kept(void) {
  CMM_STORE_SHARED(g1, 1);
  cmm_smp_wmb();
}

void flush_broken(void) {
  CMM_STORE_SHARED(g1, 2); // expected-warning {{no barrier in 'flush_broken' orders the store to 'g1' before its caller's later accesses, but its contract says its stores come before its caller's later stores (BP_CONTRACT(flush_broken, EXIT, WMB)); this needs cmm_smp_wmb() after it}}
  cmm_smp_rmb(); // expected-note {{'flush_broken' has only 'cmm_smp_rmb()' on the way, which is not enough}}
}

// No access: nothing a contract could be broken on.
void nothing_to_order(void) {
  cmm_smp_mb();
}

// What a contract function reaches through its parameters is its caller's
// memory, which the contract orders: `*p` is an object of its own that
// pairs with no other function's. A contract function is lowered even with
// no primitive left in it (its fix-it then speaks C11: nothing in it names
// another family).
void set_pointer(void **p, void *v) {
  cmm_smp_wmb();
  CMM_STORE_SHARED(*p, v);
}

void set_pointer_broken(void **p, void *v) {
  CMM_STORE_SHARED(*p, v); // expected-warning {{no barrier in 'set_pointer_broken' orders the store to '*p' after its caller's earlier accesses}}
}

void set_pointer_plain(void **p, void *v) {
  *p = v; // expected-warning {{no barrier in 'set_pointer_plain' orders the store to '*p' after its caller's earlier accesses}}
}

// A helper with a contract is checked on its own, not only inlined into its
// callers (where other accesses may come first).
int h0, h1;

static void wake_waiter(int *state) {
  cmm_smp_mb();
  CMM_STORE_SHARED(*state, 1);
}

static void wake_waiter_broken(int *state) {
  CMM_STORE_SHARED(*state, 1); // expected-warning {{no barrier in 'wake_waiter_broken' orders the store to '*state' after its caller's earlier accesses}}
}

void wake_both(void) {
  wake_waiter(&h0);
  wake_waiter_broken(&h1);
}

// A function that is a barrier itself (BARRIER): the membarrier scheme's
// writer side, a system call where the kernel has one, else a full barrier.
// The finding has no access to point at: it goes to the function's first
// event, here the test of the flag.
int sys_membarrier(void);

static void master_barrier(void) {
  if (has_membarrier)
    sys_membarrier();
  else
    cmm_smp_mb();
}

static void master_barrier_broken(void) {
  if (has_membarrier) // expected-warning {{no path through 'master_barrier_broken' has a barrier that strong, but its contract says it orders its caller's accesses as a full barrier (BP_CONTRACT(master_barrier_broken, BARRIER, MB)); this needs cmm_smp_mb() in it}}
    sys_membarrier();
  else
    cmm_barrier(); // expected-note {{'master_barrier_broken' has only 'cmm_barrier()' on the way, which is not enough}}
}

// One whose only barrier is gone orders nothing at all and has no event
// left: the finding goes to its body (liburcu's mb flavour writes
// `static void smp_mb_master(void) { cmm_smp_mb(); }`).
static void master_barrier_emptied(void) { // expected-warning {{no path through 'master_barrier_emptied' has a barrier that strong, but its contract says it orders its caller's accesses as a full barrier (BP_CONTRACT(master_barrier_emptied, BARRIER, MB)); this needs cmm_smp_mb() in it}}
}

void grace_period(void) {
  master_barrier();
  master_barrier_broken();
  master_barrier_emptied();
}

// C11's release fence orders every earlier access before later stores,
// its acquire fence earlier loads before every later access: each keeps the
// contract of its name; a store fence alone does not keep RELEASE.
#include <stdatomic.h>
int k0, k1, k2;

void release_by_fence(void) {
  atomic_thread_fence(memory_order_release);
  __atomic_store_n(&k0, 1, __ATOMIC_RELAXED);
}

int acquire_by_fence(void) {
  int v = __atomic_load_n(&k1, __ATOMIC_RELAXED);
  atomic_thread_fence(memory_order_acquire);
  return v;
}

void release_by_store_fence(void) {
  cmm_smp_wmb(); // expected-note {{'release_by_store_fence' has only 'cmm_smp_wmb()' on the way, which is not enough}}
  CMM_STORE_SHARED(k2, 1); // expected-warning {{no barrier in 'release_by_store_fence' orders the store to 'k2' after its caller's earlier accesses, but its contract says its caller's earlier loads and stores come before its stores (BP_CONTRACT(release_by_store_fence, ENTRY, RELEASE)); this needs cmm_smp_mb() before it}}
}

// A barrier too weak on the way becomes the contract's; otherwise, at
// ENTRY, the contract's barrier goes before the access's statement; at
// EXIT there is none (an event has no statement end).
// FIX: fix-it:"{{.*}}contracts.c":{25:3-25:3}:"cmm_smp_mb();\n  "
// FIX: fix-it:"{{.*}}contracts.c":{51:3-51:3}:"cmm_smp_mb();\n  "
// FIX: fix-it:"{{.*}}contracts.c":{60:3-60:16}:"cmm_smp_wmb()"
// FIX: fix-it:"{{.*}}contracts.c":{99:5-99:18}:"cmm_smp_mb()"
// FIX: fix-it:"{{.*}}contracts.c":{133:3-133:16}:"cmm_smp_wmb()"
// FIX: fix-it:"{{.*}}contracts.c":{152:3-152:3}:"cmm_smp_wmb();\n  "
// A function that names no primitive (`*p = v`) speaks its file's family.
// FIX: fix-it:"{{.*}}contracts.c":{156:3-156:3}:"cmm_smp_wmb();\n  "
// FIX: fix-it:"{{.*}}contracts.c":{169:3-169:3}:"cmm_smp_mb();\n  "
// FIX: fix-it:"{{.*}}contracts.c":{194:5-194:18}:"cmm_smp_mb()"
// FIX: fix-it:"{{.*}}contracts.c":{227:3-227:16}:"cmm_smp_mb()"
// FIX-NOT: fix-it:
