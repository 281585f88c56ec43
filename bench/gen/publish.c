/* Nodes whose fields are filled in and then published through a pointer
 * (examples/rcu-publish with explicit barriers), and a removal that hands a
 * node back with a full barrier. */
#include "module.h"

void emit_publish(module *m) {
  emitter *e = m->e;
  unsigned id = m->id;
  const char *type = module_value_type(m);
  unsigned pool = 1u << rng_between(m->r, 3, 8);

  emit(e, "/* Module %u: a list of nodes published through its head pointer. */", id);
  emit(e, "struct m%u_node {", id);
  emit(e, "  unsigned long key;");
  emit(e, "  %s value;", type);
  emit(e, "  int in_use;");
  emit(e, "  struct m%u_node *next;", id);
  emit(e, "};");
  emit(e, "static struct m%u_node m%u_pool[%u];", id, id, pool);
  emit(e, "static struct m%u_node *m%u_head;", id, id);
  emit(e, "static %s m%u_last_value;", type, id);
  emit_blank(e);

  emit(e, "int m%u_insert(unsigned slot, unsigned long key, %s value) {", id, type);
  emit(e, "  struct m%u_node *node = &m%u_pool[slot %% %uu];", id, id, pool);
  emit(e, "  if (CMM_LOAD_SHARED(node->in_use))");
  emit(e, "    return 0;");
  module_barrier(m, "  ", "cmm_smp_mb", "the node is free before it is reused");
  emit(e, "  node->key = key;");
  emit(e, "  node->value = value;");
  emit(e, "  node->next = m%u_head;", id);
  emit(e, "  node->in_use = 1;");
  module_barrier(m, "  ", "cmm_smp_wmb", "initialise the node before publishing it");
  emit(e, "  CMM_STORE_SHARED(m%u_head, node);", id);
  emit(e, "  return 1;");
  emit(e, "}");
  emit_blank(e);

  emit(e, "int m%u_lookup(unsigned long key, %s *value) {", id, type);
  emit(e, "  struct m%u_node *node = CMM_LOAD_SHARED(m%u_head);", id, id);
  module_barrier(m, "  ", "cmm_smp_rmb", "the pointer before the fields");
  emit(e, "  for (; node; node = CMM_LOAD_SHARED(node->next)) {");
  emit(e, "    if (node->key == key) {");
  emit(e, "      *value = node->value;");
  emit(e, "      return 1;");
  emit(e, "    }");
  emit(e, "  }");
  emit(e, "  return 0;");
  emit(e, "}");
  emit_blank(e);

  emit(e, "void m%u_release(struct m%u_node *node) {", id, id);
  emit(e, "  m%u_last_value = node->value;", id);
  module_barrier(m, "  ", "cmm_smp_mb", "done with the node before freeing it");
  emit(e, "  CMM_STORE_SHARED(node->in_use, 0);");
  emit(e, "}");
  emit_blank(e);
}
