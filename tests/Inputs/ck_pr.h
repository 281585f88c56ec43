/* A stand-in for Concurrency Kit's ck_pr.h with its names and shapes: fences
 * and read-modify-writes are inline functions, loads and stores macros. Here
 * each is a compiler barrier or a volatile access; what they order comes from
 * share/primitives/ck.def, never from their bodies. */
#ifndef TEST_CK_PR_H
#define TEST_CK_PR_H
#include <stdbool.h>

#define CK_PR_STAND_IN_FENCE(name)                                                                 \
  static inline void ck_pr_fence_##name(void) { __asm__ __volatile__("" ::: "memory"); }
CK_PR_STAND_IN_FENCE(memory)
CK_PR_STAND_IN_FENCE(load)
CK_PR_STAND_IN_FENCE(store)
CK_PR_STAND_IN_FENCE(store_load)
#undef CK_PR_STAND_IN_FENCE

#define ck_pr_load_int(target) (*(const volatile int *)(target))
#define ck_pr_store_int(target, value) ((void)(*(volatile int *)(target) = (value)))

static inline bool ck_pr_cas_int(int *target, int compare, int set) {
  return __sync_bool_compare_and_swap(target, compare, set);
}
#endif
