/* Flags between threads: a message and its ready flag (message passing,
 * wmb/rmb) and a stop request against a busy marker (Dekker, mb/mb), as in
 * examples/message-passing and examples/shutdown-flag. */
#include "module.h"

void emit_flags(module *m) {
  emitter *e = m->e;
  unsigned id = m->id;
  const char *type = module_value_type(m);
  unsigned words = rng_between(m->r, 1, 6);

  emit(e, "/* Module %u: a %u-word message with its ready flag, and a stop flag. */", id, words);
  emit(e, "static %s m%u_message[%u];", type, id, words);
  emit(e, "static int m%u_ready;", id);
  emit(e, "static int m%u_stop;", id);
  emit(e, "static int m%u_busy;", id);
  emit_blank(e);

  emit(e, "void m%u_send(%s base) {", id, type);
  for (unsigned w = 0; w < words; w++)
    emit(e, "  CMM_STORE_SHARED(m%u_message[%u], base + %u);", id, w, w);
  module_barrier(m, "  ", "cmm_smp_wmb", "the message before the flag");
  emit(e, "  CMM_STORE_SHARED(m%u_ready, 1);", id);
  emit(e, "}");
  emit_blank(e);

  emit(e, "int m%u_receive(%s *out) {", id, type);
  emit(e, "  if (!CMM_LOAD_SHARED(m%u_ready))", id);
  emit(e, "    return 0;");
  module_barrier(m, "  ", "cmm_smp_rmb", "the flag before the message");
  emit(e, "  %s sum = 0;", type);
  for (unsigned w = 0; w < words; w++)
    emit(e, "  sum += CMM_LOAD_SHARED(m%u_message[%u]);", id, w);
  emit(e, "  *out = sum;");
  emit(e, "  return 1;");
  emit(e, "}");
  emit_blank(e);

  emit(e, "void m%u_request_stop(void) {", id);
  emit(e, "  CMM_STORE_SHARED(m%u_stop, 1);", id);
  module_barrier(m, "  ", "cmm_smp_mb", "the request before looking at the worker");
  emit(e, "  while (CMM_LOAD_SHARED(m%u_busy))", id);
  emit(e, "    caa_cpu_relax();");
  emit(e, "}");
  emit_blank(e);

  emit(e, "int m%u_work(unsigned rounds) {", id);
  emit(e, "  int done = 0;");
  emit(e, "  for (unsigned i = 0; i < rounds; i++) {");
  emit(e, "    CMM_STORE_SHARED(m%u_busy, 1);", id);
  module_barrier(m, "    ", "cmm_smp_mb", "busy before looking at the request");
  emit(e, "    if (CMM_LOAD_SHARED(m%u_stop)) {", id);
  emit(e, "      CMM_STORE_SHARED(m%u_busy, 0);", id);
  emit(e, "      break;");
  emit(e, "    }");
  emit(e, "    done++;");
  emit(e, "    CMM_STORE_SHARED(m%u_busy, 0);", id);
  emit(e, "  }");
  emit(e, "  return done;");
  emit(e, "}");
  emit_blank(e);
}
