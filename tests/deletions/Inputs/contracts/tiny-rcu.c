/* A small read-copy-update library in liburcu's shape: a nesting read lock
 * whose outermost level publishes the grace-period counter to the writer,
 * a pointer publication, a futex-style wake-up and the writer's barrier,
 * a membarrier() system call where there is one. */
#include <urcu/arch.h>
#include <urcu/system.h>

struct tiny_reader {
  unsigned long ctr;
};

static __thread struct tiny_reader tiny_self;
unsigned long tiny_gp_ctr;
int tiny_futex;
int tiny_has_membarrier;
int tiny_membarrier(void);

void tiny_read_lock(void) {
  unsigned long nest = tiny_self.ctr;
  if (!nest) {
    CMM_STORE_SHARED(tiny_self.ctr, CMM_LOAD_SHARED(tiny_gp_ctr));
    cmm_smp_mb();
  } else {
    CMM_STORE_SHARED(tiny_self.ctr, nest + 1);
  }
}

void tiny_read_unlock(void) {
  unsigned long nest = tiny_self.ctr;
  cmm_smp_mb();
  CMM_STORE_SHARED(tiny_self.ctr, nest - 1);
}

void *tiny_assign_pointer(void **slot, void *value) {
  cmm_smp_wmb();
  CMM_STORE_SHARED(*slot, value);
  return value;
}

void tiny_wake_waiter(void) {
  cmm_smp_mb();
  if (CMM_LOAD_SHARED(tiny_futex) == -1)
    CMM_STORE_SHARED(tiny_futex, 0);
}

void tiny_master_barrier(void) {
  if (tiny_has_membarrier)
    (void)tiny_membarrier();
  else
    cmm_smp_mb();
}
