/* prng.h: the course's portable pseudo-random generator (SplitMix64).
 *
 * The same seed gives the same numbers on every machine, compiler and OS, so a
 * failing case can be replayed anywhere from its seed. Never use rand(): its
 * sequence differs between C libraries. */
#ifndef SCANLAB_PRNG_H
#define SCANLAB_PRNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct prng {
  uint64_t state;
} prng;

void prng_seed(prng *g, uint64_t seed);
uint64_t prng_next(prng *g);
/* Uniform in [0, bound), without modulo bias; bound must be > 0. */
uint32_t prng_below(prng *g, uint32_t bound);
/* Uniform in [0, 1) with 53 random bits. */
double prng_unit(prng *g);
/* Fills a[0..n) with integers uniform in [lo, hi] from the stream of `seed`. */
void prng_fill_i32(uint64_t seed, int32_t *a, size_t n, int32_t lo, int32_t hi);
/* Fills a[0..n) with the high 32 bits of the stream of `seed`: a[i] depends on
 * (seed, i) alone, so the judge fills large inputs on all its threads. */
void prng_fill_u32(uint64_t seed, uint32_t *a, size_t n);
/* Elements first .. first + n - 1 of the same stream (prng_fill_u32 of a longer
 * array, from index first): for filling one array in pieces, on several threads. */
void prng_fill_u32_from(uint64_t seed, uint64_t first, uint32_t *a, size_t n);

#ifdef __cplusplus
}
#endif
#endif
