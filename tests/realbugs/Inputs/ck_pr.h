/* Stand-ins for the Concurrency Kit ck_pr.h names the reductions use. Fences
 * are compiler barriers, loads and stores assembly moves (as CK's
 * ck_pr_md_load_T() on x86): what each one orders and marks comes from
 * share/primitives/ck.def (passed with -fplugin-arg-barrierpair-primitives),
 * never from these bodies. */
#ifndef REALBUGS_CK_PR_H
#define REALBUGS_CK_PR_H
#include <stdbool.h>

#define REALBUGS_CK_FENCE(name)                                                                    \
  static inline void ck_pr_fence_##name(void) { __asm__ __volatile__("" ::: "memory"); }
REALBUGS_CK_FENCE(memory)
REALBUGS_CK_FENCE(load)
REALBUGS_CK_FENCE(store)
REALBUGS_CK_FENCE(load_store)
REALBUGS_CK_FENCE(unlock)
#undef REALBUGS_CK_FENCE

static inline unsigned int ck_pr_md_load_uint(const unsigned int *target) {
  unsigned int value;
  __asm__ __volatile__("movl %1, %0" : "=r"(value) : "m"(*target) : "memory");
  return value;
}
static inline void ck_pr_md_store_uint(unsigned int *target, unsigned int value) {
  __asm__ __volatile__("movl %1, %0" : "=m"(*target) : "r"(value) : "memory");
}
static inline void *ck_pr_md_load_ptr(const void *target) {
  void *value;
  __asm__ __volatile__("movq %1, %0" : "=r"(value) : "m"(*(void *const *)target) : "memory");
  return value;
}
static inline void ck_pr_md_store_ptr(void *target, const void *value) {
  __asm__ __volatile__("movq %1, %0" : "=m"(*(const void **)target) : "r"(value) : "memory");
}

#define ck_pr_load_uint(target) ck_pr_md_load_uint((target))
#define ck_pr_store_uint(target, value) ck_pr_md_store_uint((target), (value))
#define ck_pr_load_ptr(target) ck_pr_md_load_ptr((target))
#define ck_pr_store_ptr(target, value) ck_pr_md_store_ptr((target), (value))

static inline bool ck_pr_cas_uint(unsigned int *target, unsigned int compare, unsigned int set) {
  return __sync_bool_compare_and_swap(target, compare, set);
}
#endif
