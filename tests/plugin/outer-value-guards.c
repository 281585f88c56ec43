// A load that runs only under two tests of loaded values keeps both: the
// nearest and the next one out (liburcu's call_rcu_data_free(): `if
// (!(uatomic_read(&crdp->flags) & STOPPED)) { uatomic_or(&crdp->flags,
// STOP); wake_up(crdp); ... }`, whose wake-up reads the futex word under
// its own test of the RT bit). A pairing whose first load is the outer
// test's is decided by that test: the thread's last store sets STOPPED, so
// a stopper that read it set never reads the futex. An atomic OR of a
// tested bit leaves it set; where another function clears the bit again
// with an atomic AND, the stopper may read that and go on (-DRESTARTED).
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -Xclang -verify=other -DRESTARTED
// expected-no-diagnostics
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define RT 1
#define STOP 2
#define STOPPED 4

struct worker {
  unsigned long flags;
  int futex;
};

static void wake_up(struct worker *w) {
  if (!(CMM_LOAD_SHARED(w->flags) & RT)) {
    cmm_smp_mb(); // other-note {{'stop_worker' orders the load of 'worker.flags' before the load of 'worker.futex' with 'cmm_smp_mb()' (in its call of 'wake_up')}}
    if (uatomic_read(&w->futex) == -1)
      uatomic_set(&w->futex, 0);
  }
}

void stop_worker(struct worker *w) {
  if ((uatomic_read(&w->flags) & STOPPED) == 0) {
    uatomic_or(&w->flags, STOP);
    wake_up(w);
    while (!(uatomic_read(&w->flags) & STOPPED))
      caa_cpu_relax();
  }
}

// The worker's end: it clears its futex word, then says it stopped, with
// no barrier between.
void *worker_thread(void *argument) {
  struct worker *w = argument;
  while (!(uatomic_read(&w->flags) & STOP))
    caa_cpu_relax();
  uatomic_set(&w->futex, 0);
  uatomic_or(&w->flags, STOPPED); // other-warning {{no barrier orders the store to 'worker.futex' before the store to 'worker.flags' in 'worker_thread'; with 'stop_worker' this is scenario 12 (message passing)}} \
                                     other-note {{scenario 12 (message passing) forbids}}
  return NULL;
}

#ifdef RESTARTED
void restart_worker(struct worker *w) {
  uatomic_and(&w->flags, ~STOPPED);
}
#endif
