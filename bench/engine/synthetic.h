/* A synthetic program for the engine: `sites` events spread over modules of
 * a few objects each (a ring's head, tail and slots), a handful of functions
 * per module, and a few objects every module touches (global flags), the
 * shape real programs have. Deterministic for a seed. */
#ifndef BENCH_ENGINE_SYNTHETIC_H
#define BENCH_ENGINE_SYNTHETIC_H

#include "barrierpair/barrierpair.h"

typedef struct {
  size_t functions, objects;
} synthetic_shape;

void synthetic_build(bp_engine *engine, size_t sites, uint64_t seed, synthetic_shape *shape);

#endif
