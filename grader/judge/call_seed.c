/* call_seed.c: the seed of each call of a case (spec.h): every call, warm-ups
 * included, gets its own input, derived from (the case's seed, the call). */
#include "spec.h"

#include "prng.h"

uint64_t judge_call_seed(uint64_t seed, uint64_t k) {
  /* One SplitMix64 step over (seed, k): neighbouring calls get unrelated inputs. */
  prng g;
  prng_seed(&g, seed ^ (0x9e3779b97f4a7c15ull * (k + 1)));
  return prng_next(&g);
}
