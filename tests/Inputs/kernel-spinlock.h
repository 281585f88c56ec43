// The kernel's spinlock as the plugin tests need it: the lock functions by
// name (the primitive table's rows), and the fence that makes an unlock
// followed by a lock a full barrier.
#ifndef BARRIERPAIR_TEST_KERNEL_SPINLOCK_H
#define BARRIERPAIR_TEST_KERNEL_SPINLOCK_H

typedef struct {
  int locked;
} spinlock_t;
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void smp_mb__after_unlock_lock(void);

#endif
