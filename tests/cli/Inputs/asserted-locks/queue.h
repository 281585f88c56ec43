// A queue whose lock the kernel's way of saying "the caller holds it"
// covers: lockdep_assert_held(), which compiles to nothing without lockdep.
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_wmb() barrier()
#define lockdep_assert_held(l)                                                                     \
  do {                                                                                             \
    (void)(l);                                                                                     \
  } while (0)

typedef struct {
  int raw;
} spinlock_t;
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);

struct queue {
  spinlock_t lock;
  int item, ready;
  int spare, spare_ready;
  int extra, extra_ready;
  int far, far_ready;
  int hidden, hidden_ready;
};

void queue_check_locked(struct queue *q);
void queue_relay_check(struct queue *q);
void queue_lock_elsewhere(struct queue *q);
