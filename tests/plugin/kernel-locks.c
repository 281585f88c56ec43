// The kernel's locks as its headers write them. spin_lock_irqsave() is a
// macro whose first statement is a typecheck() of the flags, and whose lock
// goes through spinlock_check(): the lock is the macro's argument, as its
// unlock names it. Reader locks exclude the lock's writers, not each other.
// lockdep_assert_held() (nothing but its argument without lockdep) says the
// caller holds the lock.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

typedef struct raw_spinlock {
  int raw;
} raw_spinlock_t;
typedef struct spinlock {
  raw_spinlock_t rlock;
} spinlock_t;
typedef struct {
  int raw;
} rwlock_t;

#define typecheck(type, x)                                                                         \
  ({                                                                                               \
    type __dummy;                                                                                  \
    __typeof__(x) __dummy2;                                                                        \
    (void)(&__dummy == &__dummy2);                                                                 \
    1;                                                                                             \
  })

unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags);
unsigned long _raw_read_lock_irqsave(rwlock_t *lock);
void _raw_read_unlock_irqrestore(rwlock_t *lock, unsigned long flags);
unsigned long _raw_write_lock_irqsave(rwlock_t *lock);
void _raw_write_unlock_irqrestore(rwlock_t *lock, unsigned long flags);

static inline raw_spinlock_t *spinlock_check(spinlock_t *lock) { return &lock->rlock; }
#define raw_spin_lock_irqsave(lock, flags)                                                         \
  do {                                                                                             \
    typecheck(unsigned long, flags);                                                               \
    flags = _raw_spin_lock_irqsave(lock);                                                          \
  } while (0)
#define spin_lock_irqsave(lock, flags)                                                             \
  do {                                                                                             \
    raw_spin_lock_irqsave(spinlock_check(lock), flags);                                            \
  } while (0)
static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags) {
  _raw_spin_unlock_irqrestore(&lock->rlock, flags);
}
#define read_lock_irqsave(lock, flags)                                                             \
  do {                                                                                             \
    typecheck(unsigned long, flags);                                                               \
    flags = _raw_read_lock_irqsave(lock);                                                          \
  } while (0)
#define read_unlock_irqrestore(lock, flags) _raw_read_unlock_irqrestore(lock, flags)
#define write_lock_irqsave(lock, flags)                                                            \
  do {                                                                                             \
    typecheck(unsigned long, flags);                                                               \
    flags = _raw_write_lock_irqsave(lock);                                                         \
  } while (0)
#define write_unlock_irqrestore(lock, flags) _raw_write_unlock_irqrestore(lock, flags)
#define lockdep_assert_held(l)                                                                     \
  do {                                                                                             \
    (void)(l);                                                                                     \
  } while (0)

struct queue {
  spinlock_t lock;
  int item, ready;
};

void queue_put(struct queue *q, int item) {
  unsigned long flags;
  spin_lock_irqsave(&q->lock, flags);
  WRITE_ONCE(q->item, item);
  smp_wmb(); // expected-note {{'queue_put' orders the store to 'queue.item' before the store to 'queue.ready' with 'smp_wmb()'}}
  WRITE_ONCE(q->ready, 1);
  spin_unlock_irqrestore(&q->lock, flags);
}

int queue_get(struct queue *q) {
  unsigned long flags;
  int item = -1;
  spin_lock_irqsave(&q->lock, flags);
  if (READ_ONCE(q->ready))
    item = READ_ONCE(q->item);
  spin_unlock_irqrestore(&q->lock, flags);
  return item;
}

// No lock: it races with queue_put().
int queue_peek(struct queue *q) {
  if (READ_ONCE(q->ready))
    return READ_ONCE(q->item); // expected-warning {{no barrier orders the load of 'queue.ready' before the load of 'queue.item' in 'queue_peek'; with 'queue_put' this is scenario 3 (message passing)}} \
                                  expected-note {{scenario 3 (message passing) forbids}}
  return -1;
}

// Its callers hold the lock, as it says.
int queue_peek_locked(struct queue *q) {
  lockdep_assert_held(&q->lock);
  if (READ_ONCE(q->ready))
    return READ_ONCE(q->item);
  return -1;
}

struct table {
  rwlock_t lock;
  int key, value;
  int left, right;
};

// The writer and the reader of a reader lock never run at once.
void table_set(struct table *t, int value) {
  unsigned long flags;
  write_lock_irqsave(&t->lock, flags);
  WRITE_ONCE(t->value, value);
  smp_wmb();
  WRITE_ONCE(t->key, 1);
  write_unlock_irqrestore(&t->lock, flags);
}

int table_get(struct table *t) {
  unsigned long flags;
  int value = -1;
  read_lock_irqsave(&t->lock, flags);
  if (READ_ONCE(t->key))
    value = READ_ONCE(t->value);
  read_unlock_irqrestore(&t->lock, flags);
  return value;
}

// Two readers of one lock run at the same time: Dekker's flags need both
// barriers.
int table_mark_left(struct table *t) {
  unsigned long flags;
  int other;
  read_lock_irqsave(&t->lock, flags);
  WRITE_ONCE(t->left, 1);
  smp_mb(); // expected-note {{'table_mark_left' orders the store to 'table.left' before the load of 'table.right' with 'smp_mb()'}}
  other = READ_ONCE(t->right);
  read_unlock_irqrestore(&t->lock, flags);
  return other;
}

int table_mark_right(struct table *t) {
  unsigned long flags;
  int other;
  read_lock_irqsave(&t->lock, flags);
  WRITE_ONCE(t->right, 1);
  other = READ_ONCE(t->left); // expected-warning {{no barrier orders the store to 'table.right' before the load of 'table.left' in 'table_mark_right'; with 'table_mark_left' this is scenario 10 (Dekker)}} \
                                 expected-note {{scenario 10 (Dekker) forbids}}
  read_unlock_irqrestore(&t->lock, flags);
  return other;
}
