/* A stand-in for Concurrency Kit's ck_pr.h with its names and shapes: fences
 * and read-modify-writes are inline functions, loads and stores macros over
 * inline functions whose access is assembly (as CK's ck_pr_md_load_T() on
 * x86). Here each is a compiler barrier or an assembly move; what they order
 * and access comes from share/primitives/ck.def, never from their bodies. */
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

static inline int ck_pr_md_load_int(const int *target) {
  int value;
  __asm__ __volatile__("movl %1, %0" : "=r"(value) : "m"(*target) : "memory");
  return value;
}

static inline void ck_pr_md_store_int(int *target, int value) {
  __asm__ __volatile__("movl %1, %0" : "=m"(*target) : "r"(value) : "memory");
}

#define ck_pr_load_int(target) ck_pr_md_load_int((target))
#define ck_pr_store_int(target, value) ck_pr_md_store_int((target), (value))

static inline bool ck_pr_cas_int(int *target, int compare, int set) {
  return __sync_bool_compare_and_swap(target, compare, set);
}
#endif
