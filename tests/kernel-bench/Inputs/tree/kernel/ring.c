/* A kernel-style ring: the producer's wmb pairs with the consumer's rmb,
 * and both comments say so; the stats reader's comment names a function
 * that is not its partner, and the stats publisher has no barrier. */
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

int ring_slot, ring_head, stat_value, stat_ready;

void ring_produce(int value) {
  WRITE_ONCE(ring_slot, value);
  smp_wmb(); /* Pairs with smp_rmb() in ring_consume() */
  WRITE_ONCE(ring_head, 1);
}

int ring_consume(void) {
  int head = READ_ONCE(ring_head);
  smp_rmb(); /* Pairs with smp_wmb() in ring_produce() */
  return head ? READ_ONCE(ring_slot) : -1;
}

void stat_publish(int value) {
  WRITE_ONCE(stat_value, value);
  WRITE_ONCE(stat_ready, 1);
}

int stat_read(void) {
  int ready = READ_ONCE(stat_ready);
  smp_rmb(); /* Pairs with smp_wmb() in ring_produce() */
  return ready ? READ_ONCE(stat_value) : -1;
}

/* A log whose barriers are in static helpers lowered into their callers:
 * the comments name the helpers, which the program defines though it
 * analyses them only inside their callers. */
int log_value, log_ready;

static inline void log_commit(int value) {
  WRITE_ONCE(log_value, value);
  smp_wmb(); /* Pairs with smp_rmb() in log_fetch() */
  WRITE_ONCE(log_ready, 1);
}

void log_write(int value) {
  log_commit(value);
}

static inline int log_fetch(void) {
  int ready = READ_ONCE(log_ready);
  smp_rmb(); /* Pairs with smp_wmb() in log_commit() */
  return ready ? READ_ONCE(log_value) : -1;
}

int log_read(void) {
  return log_fetch();
}
