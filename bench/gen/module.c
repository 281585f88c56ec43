#include "module.h"

#include <string.h>

/* The wrong kind for each barrier, as the menagerie's bugs have it. */
static const char *weakened(const char *name) {
  if (strcmp(name, "cmm_smp_mb") == 0)
    return "cmm_smp_wmb";
  if (strcmp(name, "cmm_smp_wmb") == 0)
    return "cmm_smp_rmb";
  return "cmm_smp_wmb";
}

void module_barrier(module *m, const char *indent, const char *name, const char *why) {
  bool bug = m->broken && m->barrier_sites++ == m->break_at;
  if (!bug) {
    if (why && rng_percent(m->r, 50))
      emit(m->e, "%s%s(); /* %s */", indent, name, why);
    else
      emit(m->e, "%s%s();", indent, name);
    return;
  }
  if (rng_percent(m->r, 50))
    emit(m->e, "%s%s();", indent, weakened(name));
  /* else: the barrier is simply not there */
}

const char *module_value_type(module *m) {
  static const char *const types[] = {"int", "long", "unsigned", "unsigned long"};
  return types[rng_between(m->r, 0, 3)];
}
