/* prng.c: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014), plus the small helpers the course needs. */
#include "prng.h"

void prng_seed(prng *g, uint64_t seed) { g->state = seed; }

uint64_t prng_next(prng *g) {
  uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint32_t prng_below(prng *g, uint32_t bound) {
  /* Lemire's multiply-and-reject: unbiased for every bound. */
  uint64_t m = (uint64_t)(uint32_t)(prng_next(g) >> 32) * bound;
  uint32_t low = (uint32_t)m;
  if (low < bound) {
    uint32_t threshold = (uint32_t)(-bound) % bound;
    while (low < threshold) {
      m = (uint64_t)(uint32_t)(prng_next(g) >> 32) * bound;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

double prng_unit(prng *g) { return (double)(prng_next(g) >> 11) * 0x1.0p-53; }

void prng_fill_i32(uint64_t seed, int32_t *a, size_t n, int32_t lo, int32_t hi) {
  prng g;
  prng_seed(&g, seed);
  uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1); /* 0 means the full range */
  for (size_t i = 0; i < n; i++) {
    uint32_t r = span ? prng_below(&g, span) : (uint32_t)(prng_next(&g) >> 32);
    a[i] = (int32_t)((uint32_t)lo + r);
  }
}

/* Output i of SplitMix64's stream: the state after i + 1 steps is seed + (i + 1) gamma. */
static uint64_t prng_at(uint64_t seed, uint64_t i) {
  prng g = {seed + i * 0x9e3779b97f4a7c15ULL};
  return prng_next(&g);
}

void prng_fill_u32_from(uint64_t seed, uint64_t first, uint32_t *a, size_t n) {
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(prng_at(seed, first + i) >> 32);
}

void prng_fill_u32(uint64_t seed, uint32_t *a, size_t n) { prng_fill_u32_from(seed, 0, a, n); }
