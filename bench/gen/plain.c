/* Code that touches no shared memory: checksums, parsing, a state machine.
 * Real files are mostly this, and the plugin must cost little on it. */
#include "module.h"

void emit_plain_code(module *m) {
  emitter *e = m->e;
  unsigned id = m->id;
  unsigned states = rng_between(m->r, 3, 8);
  unsigned length = rng_between(m->r, 8, 64);

  emit(e, "static unsigned long m%u_checksum(const unsigned char *data, unsigned long size) {", id);
  emit(e, "  unsigned long hash = %lluul;", (unsigned long long)(rng_next(m->r) >> 40));
  emit(e, "  for (unsigned long i = 0; i < size; i++)");
  emit(e, "    hash = (hash ^ data[i]) * %uul;", rng_between(m->r, 3, 1u << 20) | 1u);
  emit(e, "  return hash;");
  emit(e, "}");
  emit_blank(e);
  emit(e, "unsigned m%u_step(unsigned state, int input) {", id);
  emit(e, "  switch (state) {");
  for (unsigned s = 0; s < states; s++) {
    emit(e, "  case %u:", s);
    emit(e, "    return input > %d ? %uu : %uu;", (int)rng_between(m->r, 0, 100) - 50,
         (s + 1) % states, rng_between(m->r, 0, states - 1));
  }
  emit(e, "  default:");
  emit(e, "    return 0;");
  emit(e, "  }");
  emit(e, "}");
  emit_blank(e);
  emit(e, "unsigned long m%u_digest(unsigned seed) {", id);
  emit(e, "  unsigned char buffer[%u];", length);
  emit(e, "  unsigned state = seed %% %uu;", states);
  emit(e, "  for (unsigned i = 0; i < sizeof buffer; i++) {");
  emit(e, "    state = m%u_step(state, (int)(i * %u) - %d);", id, rng_between(m->r, 1, 9),
       (int)rng_between(m->r, 0, 200));
  emit(e, "    buffer[i] = (unsigned char)(state + i);");
  emit(e, "  }");
  emit(e, "  return m%u_checksum(buffer, sizeof buffer);", id);
  emit(e, "}");
  emit_blank(e);
}
