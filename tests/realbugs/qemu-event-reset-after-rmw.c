// QEMU, util/qemu-thread-posix.c: commit 9586a1329f5d ("qemu-thread-posix:
// cleanup, fix, document QemuEvent").
//
// A thread that waits for a condition resets the event, checks the condition
// and only then waits; the thread that makes the condition true stores it and
// sets the event, which starts with smp_mb() and then reads ev->value. The
// reset is a read-modify-write of ev->value (qatomic_or(), sequentially
// consistent in C11) followed by the caller's relaxed load of the condition.
// Store then load on both sides (Dekker), but a C11 seq_cst RMW does not
// order a later relaxed load (on ARM the load can pass it), so the waiter
// could miss the condition while the setter saw the event still set and did
// not wake it. The fix ends qemu_event_reset() with smp_mb__after_rmw()
// (and drops the load and acquire fence that guarded the qatomic_or(); the
// reduction has the unconditional qatomic_or() in both versions, so that
// they differ only by the barrier).
// The analyzer must report missing-barrier in 'wait_for_work' (in its call
// of 'qemu_event_reset') for the store to 'QemuEvent.value' before the load
// of 'work_done', paired with 'finish_work'. The read half of the
// qatomic_or(), whose value the reset drops, claims no order of its own.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/qemu.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/qemu.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/qemu.h"

#define EV_SET 0
#define EV_FREE 1
#define EV_BUSY -1

typedef struct QemuEvent {
  unsigned value;
} QemuEvent;

extern void qemu_futex_wake(QemuEvent *ev);
extern void qemu_futex_wait(QemuEvent *ev, unsigned value);

void qemu_event_set(QemuEvent *ev) {
  smp_mb(); // before-note {{'finish_work' orders the store to 'work_done' before the load of 'work_ev.value'}}
  if (qatomic_read(&ev->value) != EV_SET) {
    if (qatomic_xchg(&ev->value, EV_SET) == EV_BUSY)
      qemu_futex_wake(ev);
  }
}

void qemu_event_reset(QemuEvent *ev) {
  qatomic_or(&ev->value, EV_FREE); // before-note {{'wait_for_work' stores 'work_ev.value' here}}
#ifdef FIXED
  smp_mb__after_rmw();
#endif
}

void qemu_event_wait(QemuEvent *ev) {
  unsigned value = qatomic_load_acquire(&ev->value);
  if (value != EV_SET)
    qemu_futex_wait(ev, value);
}

static QemuEvent work_ev;
static bool work_done;

void wait_for_work(void) {
  for (;;) {
    qemu_event_reset(&work_ev);
    if (qatomic_read(&work_done)) // before-warning {{no barrier orders the store to 'work_ev.value' before the load of 'work_done' in 'wait_for_work'}} \
                                     before-note {{scenario 10}}
      break;
    qemu_event_wait(&work_ev);
  }
}

void finish_work(void) {
  qatomic_set(&work_done, true);
  qemu_event_set(&work_ev);
}
