/* The ring of examples/spsc-ring: publishing a slot is message passing
 * (wmb/rmb), handing it back is inverse Dekker (mb/mb). */
#include "module.h"

void emit_ring(module *m) {
  emitter *e = m->e;
  unsigned id = m->id;
  const char *type = module_value_type(m);
  unsigned size = 1u << rng_between(m->r, 4, 10);
  bool through_pointer = rng_percent(m->r, 50);
  /* The functions take the ring or use the module's one. */
  const char *ring = through_pointer ? "r->" : "";
  char ring_buffer[32];
  if (!through_pointer) {
    snprintf(ring_buffer, sizeof ring_buffer, "m%u_queue.", id);
    ring = ring_buffer;
  }

  emit(e, "/* Module %u: a single-producer, single-consumer ring of %u %s values. */", id, size,
       type);
  emit(e, "#define M%u_RING_SIZE %uu", id, size);
  emit(e, "struct m%u_ring {", id);
  emit(e, "  unsigned long head; /* stored by the producer only */");
  emit(e, "  unsigned long tail; /* stored by the consumer only */");
  emit(e, "  %s slots[M%u_RING_SIZE];", type, id);
  emit(e, "};");
  emit(e, "static struct m%u_ring m%u_queue;", id, id);
  emit(e, "static unsigned long m%u_pushed, m%u_popped;", id, id);
  emit_blank(e);

  emit(e, "int m%u_push(%s value) {", id, type);
  if (through_pointer)
    emit(e, "  struct m%u_ring *r = &m%u_queue;", id, id);
  emit(e, "  unsigned long head = %shead;", ring);
  emit(e, "  if (head - CMM_LOAD_SHARED(%stail) == M%u_RING_SIZE)", ring, id);
  emit(e, "    return 0; /* full */");
  module_barrier(m, "  ", "cmm_smp_mb", "the consumer is done with the slot");
  emit(e, "  CMM_STORE_SHARED(%sslots[head %% M%u_RING_SIZE], value);", ring, id);
  module_barrier(m, "  ", "cmm_smp_wmb", "fill the slot before publishing it");
  emit(e, "  CMM_STORE_SHARED(%shead, head + 1);", ring);
  emit(e, "  m%u_pushed++;", id);
  emit(e, "  return 1;");
  emit(e, "}");
  emit_blank(e);

  emit(e, "int m%u_pop(%s *value) {", id, type);
  if (through_pointer)
    emit(e, "  struct m%u_ring *r = &m%u_queue;", id, id);
  emit(e, "  unsigned long tail = %stail;", ring);
  emit(e, "  if (CMM_LOAD_SHARED(%shead) == tail)", ring);
  emit(e, "    return 0; /* empty */");
  module_barrier(m, "  ", "cmm_smp_rmb", "see the slot that head published");
  emit(e, "  *value = CMM_LOAD_SHARED(%sslots[tail %% M%u_RING_SIZE]);", ring, id);
  module_barrier(m, "  ", "cmm_smp_mb", "finish reading the slot before handing it back");
  emit(e, "  CMM_STORE_SHARED(%stail, tail + 1);", ring);
  emit(e, "  m%u_popped++;", id);
  emit(e, "  return 1;");
  emit(e, "}");
  emit_blank(e);

  /* Batch operations: loops around the ring operations. */
  emit(e, "unsigned m%u_push_all(const %s *values, unsigned count) {", id, type);
  emit(e, "  unsigned done = 0;");
  emit(e, "  while (done < count && m%u_push(values[done]))", id);
  emit(e, "    done++;");
  emit(e, "  return done;");
  emit(e, "}");
  emit_blank(e);
  emit(e, "%s m%u_drain(unsigned limit) {", type, id);
  emit(e, "  %s sum = 0, value;", type);
  emit(e, "  for (unsigned i = 0; i < limit; i++) {");
  emit(e, "    if (!m%u_pop(&value))", id);
  emit(e, "      break;");
  emit(e, "    sum += value;");
  emit(e, "  }");
  emit(e, "  return sum;");
  emit(e, "}");
  emit_blank(e);
}
