// Helpers for primitive-use.c: atomic builtins written directly, no macro.
static inline int helper_load(int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void helper_store(int *p, int value) { __atomic_store_n(p, value, __ATOMIC_RELAXED); }
static inline void helper_wmb(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
