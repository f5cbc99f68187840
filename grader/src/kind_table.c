/* kind_table.c: the data of the table of check kinds (kind_table.h) and the
 * rules some kinds add to their sections. */
#include "kind_table.h"

#include <stdio.h>
#include <string.h>

#define KEYS(...) (0u __VA_ARGS__)
#define K(key) | KEY_BIT(KEY_##key)

static int one_case(const check_conf *c, char *why, size_t cap, const char *what) {
  if (c->n_cases == 1) return 1;
  snprintf(why, cap, "a %s check %s exactly one case", c->kind == KIND_PERF ? "perf" : "metric", what);
  return 0;
}

/* Called only for a section whose kind is a row of the table (conf.c's validate). */
static int has_bound(const check_conf *c, char *why, size_t cap) {
  if (c->min >= 0 || c->max >= 0) return 1;
  snprintf(why, cap, "a %s check needs min, max or both", KIND_ROWS[c->kind].name);
  return 0;
}

static int perf_rule(const check_conf *c, char *why, size_t cap) { return one_case(c, why, cap, "times"); }
static int metric_rule(const check_conf *c, char *why, size_t cap) {
  return has_bound(c, why, cap) && one_case(c, why, cap, "profiles");
}

const kind_row KIND_ROWS[KIND_COUNT] = {
    [KIND_CORRECT] = {"correct", KEYS(K(VARIANT) K(CASES)), KEYS(K(REPEAT)), 1, 1, 1, NULL,
                      "the student's output of each case verifies against the CPU reference"},
    [KIND_PERF] = {"perf", KEYS(K(VARIANT) K(CASES) K(FLOOR)), KEYS(K(FULL_RATIO) K(RUNS) K(REPS) K(BASELINE)), 1, 1, 1, perf_rule,
                   "the student's time against a baseline timed in the same run", 1},
    [KIND_PTX] = {"ptx", KEYS(K(KERNEL) K(PATTERN)), KEYS(K(MIN) K(MAX)), 0, 0, 1, has_bound,
                  "PTX lines of one kernel matching a pattern, within bounds"},
    [KIND_SANITIZER] = {"sanitizer", KEYS(K(VARIANT) K(CASES) K(TOOL)), 0, 1, 0, 4, NULL,
                        "compute-sanitizer reports nothing"},
    [KIND_MODEL] = {"model", KEYS(K(VARIANT) K(CASES)), 0, 0, 0, 1, NULL,
                    "a CPU model built with the student's file accepts each case"},
    [KIND_METRIC] = {"metric", KEYS(K(VARIANT) K(CASES) K(KERNEL) K(METRIC)), KEYS(K(MIN) K(MAX)), 1, 0, 1, metric_rule,
                     "an Nsight Compute metric of one kernel, within bounds", 1},
};

const kind_row *kind_row_get(check_kind k) {
  if ((unsigned)k >= KIND_COUNT || !KIND_ROWS[k].name) return NULL;
  return &KIND_ROWS[k];
}

const kind_row *kind_row_find(const char *name) {
  for (int k = 0; k < KIND_COUNT; k++)
    if (KIND_ROWS[k].name && !strcmp(KIND_ROWS[k].name, name)) return &KIND_ROWS[k];
  return NULL;
}
