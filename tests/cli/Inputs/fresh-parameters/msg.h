#include <urcu/arch.h>
#include <urcu/system.h>

struct node {
  struct node *next;
};

// a lock of the kernel's kind, taken and dropped in another unit
typedef struct {
  int held;
} spinlock_t;
void raw_lock_take(spinlock_t *lock);
void raw_lock_drop(spinlock_t *lock);
static inline void spin_lock(spinlock_t *lock) {
  raw_lock_take(lock);
}
static inline void spin_unlock(spinlock_t *lock) {
  raw_lock_drop(lock);
}

struct msg {
  int data;
  int ready;
  struct node node;
  spinlock_t lock;
  int owner;
};

// a message's operations, stored by init.c's initializer
struct msg_ops {
  void (*trace)(const struct msg *m);
  void (*clear)(struct msg *m);
};
extern const struct msg_ops msg_default_ops;

struct box {
  struct msg head;
};

void msg_init(struct msg *m, int data);
void msg_setup(struct msg *m);
void msg_clear(struct msg *m);
void msg_register(struct msg *m);
