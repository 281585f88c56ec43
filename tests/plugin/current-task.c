// The kernel's `current` (get_current(), a SELF primitive) is the running
// task: two functions that reach a field through it reach two tasks'
// instances, as two threads reach their own thread-local variables. The
// grace-period kthread clears its own holdout flag before a full barrier and
// a step of the sequence; a softirq checks the sequence and then clears its
// own task's flag: no message passes between them (the kernel's
// rcu_gp_kthread() and rcu_core_si() through rcu_tasks_classic_qs(current,
// false), whose findings went). Also through a helper handed `current`
// (-DHELPER). A task reached through a pointer (-DOTHER_TASK) may be any
// task, the kthread's too: the pair stays.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DHELPER -Xclang -verify
// RUN: %barrierpair %s -DOTHER_TASK -Xclang -verify=other
// expected-no-diagnostics
#include "kernel.h"

struct task_struct {
  int holdout;
};
struct task_struct *get_current(void);
#define current get_current()
#define tasks_qs(t)                                                                                \
  do {                                                                                             \
    if (READ_ONCE((t)->holdout))                                                                   \
      WRITE_ONCE((t)->holdout, 0);                                                                 \
  } while (0)

static inline void quiescent(struct task_struct *t) { tasks_qs(t); }

struct gp_state {
  unsigned long seq;
};
struct gp_state gp;

void gp_kthread(void) {
#ifdef HELPER
  quiescent(current);
#else
  tasks_qs(current);
#endif
  smp_mb(); // other-note {{'gp_kthread' orders the store to 'task_struct.holdout' before the store to 'gp.seq' with 'smp_mb()'}}
  WRITE_ONCE(gp.seq, gp.seq + 1);
}

#ifdef OTHER_TASK
void core(struct task_struct *t) {
  if (READ_ONCE(gp.seq) & 1)
    tasks_qs(t); // other-warning {{no barrier orders the load of 'gp.seq' before the load of 'task_struct.holdout' in 'core'; with 'gp_kthread' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                    other-note {{scenario 3 (message passing) forbids}}
}
#else
void core(void) {
  if (READ_ONCE(gp.seq) & 1)
#ifdef HELPER
    quiescent(current);
#else
    tasks_qs(current);
#endif
}
#endif
