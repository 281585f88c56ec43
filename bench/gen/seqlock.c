/* A sequence lock over a few fields, as in examples/seqlock: the writer
 * brackets its update with wmb, the reader its reads with rmb. */
#include "module.h"

void emit_seqlock(module *m) {
  emitter *e = m->e;
  unsigned id = m->id;
  const char *type = module_value_type(m);
  unsigned fields = rng_between(m->r, 2, 5);

  emit(e, "/* Module %u: %u fields under a sequence count. */", id, fields);
  emit(e, "struct m%u_state {", id);
  emit(e, "  unsigned long sequence; /* odd while an update is in progress */");
  for (unsigned f = 0; f < fields; f++)
    emit(e, "  %s field%u;", type, f);
  emit(e, "};");
  emit(e, "static struct m%u_state m%u_shared;", id, id);
  emit_blank(e);

  emit(e, "void m%u_write(%s value) {", id, type);
  emit(e, "  unsigned long sequence = m%u_shared.sequence;", id);
  emit(e, "  CMM_STORE_SHARED(m%u_shared.sequence, sequence + 1);", id);
  module_barrier(m, "  ", "cmm_smp_wmb", "odd before the data changes");
  for (unsigned f = 0; f < fields; f++)
    emit(e, "  CMM_STORE_SHARED(m%u_shared.field%u, value + %u);", id, f, f);
  module_barrier(m, "  ", "cmm_smp_wmb", "the data before the count is even");
  emit(e, "  CMM_STORE_SHARED(m%u_shared.sequence, sequence + 2);", id);
  emit(e, "}");
  emit_blank(e);

  emit(e, "int m%u_try_read(%s *out) {", id, type);
  emit(e, "  unsigned long sequence = CMM_LOAD_SHARED(m%u_shared.sequence);", id);
  emit(e, "  if (sequence & 1)");
  emit(e, "    return 0;");
  module_barrier(m, "  ", "cmm_smp_rmb", "the count before the data");
  for (unsigned f = 0; f < fields; f++)
    emit(e, "  out[%u] = CMM_LOAD_SHARED(m%u_shared.field%u);", f, id, f);
  module_barrier(m, "  ", "cmm_smp_rmb", "the data before the count again");
  emit(e, "  return CMM_LOAD_SHARED(m%u_shared.sequence) == sequence;", id);
  emit(e, "}");
  emit_blank(e);

  emit(e, "void m%u_read(%s *out) {", id, type);
  emit(e, "  while (!m%u_try_read(out))", id);
  emit(e, "    caa_cpu_relax();");
  emit(e, "}");
  emit_blank(e);
}
