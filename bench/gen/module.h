/* One module of the generated program: a concurrent data structure with its
 * own types, objects and functions (prefix m<id>_), written the way liburcu's
 * users write them. A broken module has exactly one barrier missing or of the
 * wrong kind, as a real bug would. */
#ifndef BENCH_GEN_MODULE_H
#define BENCH_GEN_MODULE_H

#include "emit.h"
#include "rng.h"

#include <stdbool.h>

typedef struct {
  emitter *e;
  rng *r;
  unsigned id;
  bool broken;
  unsigned barrier_sites; /* barriers written so far */
  unsigned break_at;      /* which one a broken module breaks */
} module;

/* Every pattern writes at least this many barriers, so break_at always
 * lands on one. */
#define MODULE_MIN_BARRIERS 4

/* A barrier statement: `name` ("cmm_smp_wmb"), or the bug at break_at. */
void module_barrier(module *m, const char *indent, const char *name, const char *why);
/* A C type for the module's values. */
const char *module_value_type(module *m);

void emit_ring(module *m);       /* single-producer/single-consumer ring */
void emit_flags(module *m);      /* message passing and a Dekker stop flag */
void emit_seqlock(module *m);    /* sequence count and protected fields */
void emit_publish(module *m);    /* struct fields published through a pointer */
void emit_plain_code(module *m); /* no shared memory: what surrounds the rest */

#endif
