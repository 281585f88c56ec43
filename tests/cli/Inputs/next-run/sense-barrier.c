// A sense-reversing thread barrier, as Concurrency Kit's
// ck_barrier_centralized() writes it.
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

struct sense_barrier {
  unsigned int value;
  unsigned int sense;
};

void sense_barrier_wait(struct sense_barrier *barrier, unsigned int *own_sense,
                        unsigned int threads) {
  unsigned int sense = *own_sense = ~*own_sense;
  unsigned int value = __atomic_fetch_add(&barrier->value, 1, __ATOMIC_RELAXED);
  if (value == threads - 1) {
    __atomic_store_n(&barrier->value, 0, __ATOMIC_RELAXED);
    smp_mb();
    __atomic_store_n(&barrier->sense, sense, __ATOMIC_RELAXED);
    return;
  }
  smp_mb();
  while (sense != __atomic_load_n(&barrier->sense, __ATOMIC_RELAXED))
    ;
#ifndef NO_SPIN_FENCE
  smp_mb();
#endif
}
