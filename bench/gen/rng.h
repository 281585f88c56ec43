/* The generator's only source of variety: splitmix64, so a seed gives the
 * same program on every machine and C library (rand() would not). */
#ifndef BENCH_GEN_RNG_H
#define BENCH_GEN_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t state;
} rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform in [low, high]. */
unsigned rng_between(rng *r, unsigned low, unsigned high);
/* True with probability percent/100. */
int rng_percent(rng *r, unsigned percent);

#endif
