/* seed_env.h: the grading seed from the environment.
 *
 * SCANLAB_SEED names it, as every variable of the grader is SCANLAB_*. The old
 * name GRADE_SEED is still read, with a one-line warning that names the new one;
 * when both are set, SCANLAB_SEED wins (and the warning says GRADE_SEED was
 * ignored). */
#ifndef SCANLAB_SEED_ENV_H
#define SCANLAB_SEED_ENV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SEED_ENV "SCANLAB_SEED"
#define SEED_ENV_OLD "GRADE_SEED"

/* Every seed is below 2^53, so that a JSON reader's double (results.json's
 * extra_data.seed) holds it exactly; 2^53 itself is refused. The errors say
 * "below 2^53". */
#define SEED_LIMIT (1ULL << 53)

/* 1 with the seed in *seed when SCANLAB_SEED (or GRADE_SEED) is set and not
 * empty, 0 when neither is, -1 with a one-line reason in err when the value is
 * not an unsigned integer below 2^53. Warnings go to warn (stderr; NULL: none). */
int seed_from_env(uint64_t *seed, FILE *warn, char *err, size_t cap);

/* A seed as the grader takes it (--seed S or the variable): decimal digits, a
 * value below SEED_LIMIT (2^53). 0 with *seed set, or -1. */
int seed_parse(const char *text, uint64_t *seed);

#endif
