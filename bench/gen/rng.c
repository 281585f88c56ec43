#include "rng.h"

void rng_seed(rng *r, uint64_t seed) {
  r->state = seed;
}

uint64_t rng_next(rng *r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

unsigned rng_between(rng *r, unsigned low, unsigned high) {
  return low + (unsigned)(rng_next(r) % ((uint64_t)high - low + 1));
}

int rng_percent(rng *r, unsigned percent) {
  return rng_next(r) % 100 < percent;
}
