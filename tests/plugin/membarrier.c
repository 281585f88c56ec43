// The membarrier scheme (liburcu's memb and bp flavours): a reader's side
// has only a compiler barrier where the system call exists (its fallback is
// a full barrier), and the writer's side forces a full barrier on every
// running thread. A call of the writer's barrier is one barrier of order
// MEMBARRIER by its contract, whichever path the flag picks; against it, the
// reader's compiler barrier orders as a full one. Against a plain full
// barrier it does not ("slave barriers are only guaranteed to be ordered
// wrt master barriers"), and a reader with no barrier at all is reported,
// naming the writer's call. Without the contract the writer's way through
// the system call orders nothing, and only the plain pair is reported.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%S/Inputs/membarrier.def -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=open
#include <urcu/arch.h>
#include <urcu/system.h>

int has_membarrier;
int sys_membarrier(void);

static void master_barrier(void) {
  if (has_membarrier)
    sys_membarrier();
  else
    cmm_smp_mb();
}

static inline void slave_barrier(void) {
  if (has_membarrier)
    cmm_barrier(); // expected-warning {{'cmm_barrier()' is too weak to order the store to 'plain_ctr' before the load of 'plain_gp' in 'reader_plain' (in its call of 'slave_barrier'); with 'writer_plain' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                   // expected-note {{scenario 10 (Dekker) forbids}} \
                   // open-warning {{'cmm_barrier()' is too weak to order the store to 'plain_ctr' before the load of 'plain_gp' in 'reader_plain'}} \
                   // open-note {{scenario 10 (Dekker) forbids}}
  else
    cmm_smp_mb();
}

int ctr, gp, deleted_ctr, deleted_gp, plain_ctr, plain_gp;

int reader(void) {
  CMM_STORE_SHARED(ctr, 1);
  slave_barrier();
  return CMM_LOAD_SHARED(gp);
}

int writer(void) {
  CMM_STORE_SHARED(gp, 1);
  master_barrier();
  return CMM_LOAD_SHARED(ctr);
}

int reader_deleted(void) {
  CMM_STORE_SHARED(deleted_ctr, 1);
  return CMM_LOAD_SHARED(deleted_gp); // expected-warning {{no barrier orders the store to 'deleted_ctr' before the load of 'deleted_gp' in 'reader_deleted'; with 'writer_deleted' this is scenario 10 (Dekker), which needs cmm_smp_mb() here}} \
                                      // expected-note {{scenario 10 (Dekker) forbids}}
}

int writer_deleted(void) {
  CMM_STORE_SHARED(deleted_gp, 1);
  master_barrier(); // expected-note {{'writer_deleted' orders the store to 'deleted_gp' before the load of 'deleted_ctr' with 'master_barrier()'}}
  return CMM_LOAD_SHARED(deleted_ctr);
}

int reader_plain(void) {
  CMM_STORE_SHARED(plain_ctr, 1);
  slave_barrier();
  return CMM_LOAD_SHARED(plain_gp);
}

int writer_plain(void) {
  CMM_STORE_SHARED(plain_gp, 1);
  cmm_smp_mb(); // expected-note {{'writer_plain' orders the store to 'plain_gp' before the load of 'plain_ctr' with 'cmm_smp_mb()'}} \
                // open-note {{'writer_plain' orders the store to 'plain_gp' before the load of 'plain_ctr' with 'cmm_smp_mb()'}}
  return CMM_LOAD_SHARED(plain_ctr);
}
