/* seed_env.c: the grading seed from the environment (seed_env.h). */
#include "seed_env.h"

#include <errno.h>
#include <stdlib.h>

int seed_from_env(uint64_t *seed, FILE *warn, char *err, size_t cap) {
  const char *name = SEED_ENV, *value = getenv(SEED_ENV), *old = getenv(SEED_ENV_OLD);
  if (old && *old) {
    if (value && *value) {
      if (warn) fprintf(warn, "grade: warning: %s is ignored: %s is set (%s is the old name of %s)\n", SEED_ENV_OLD, SEED_ENV,
                        SEED_ENV_OLD, SEED_ENV);
    } else {
      if (warn) fprintf(warn, "grade: warning: %s is the old name of %s; set %s=%s instead\n", SEED_ENV_OLD, SEED_ENV, SEED_ENV, old);
      name = SEED_ENV_OLD, value = old;
    }
  }
  if (!value || !*value) return 0;
  if (seed_parse(value, seed) < 0) {
    snprintf(err, cap, "%s: '%s' is not an unsigned integer below 2^53", name, value);
    return -1;
  }
  return 1;
}

int seed_parse(const char *text, uint64_t *seed) {
  char *end;
  errno = 0;
  unsigned long long s = strtoull(text, &end, 10);
  if (errno || *end || *text < '0' || *text > '9' || s >= SEED_LIMIT) return -1;
  *seed = (uint64_t)s;
  return 0;
}
