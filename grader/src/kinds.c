/* kinds.c: the table of check kinds (kinds.h) and `grade --kinds`. */
#include "kinds.h"

#include <string.h>

#define KEYS(...) (0u __VA_ARGS__)
#define K(key) | KEY_BIT(KEY_##key)

static int one_case(const check_conf *c, char *why, size_t cap, const char *what) {
  if (c->n_cases == 1) return 1;
  snprintf(why, cap, "a %s check %s exactly one case", c->kind == KIND_PERF ? "perf" : "metric", what);
  return 0;
}

static int has_bound(const check_conf *c, char *why, size_t cap) {
  if (c->min >= 0 || c->max >= 0) return 1;
  snprintf(why, cap, "a %s check needs min, max or both", conf_kind_name(c->kind));
  return 0;
}

static int perf_rule(const check_conf *c, char *why, size_t cap) { return one_case(c, why, cap, "times"); }
static int metric_rule(const check_conf *c, char *why, size_t cap) {
  return has_bound(c, why, cap) && one_case(c, why, cap, "profiles");
}

const kind_def KINDS[KIND_COUNT] = {
    [KIND_CORRECT] = {"correct", KEYS(K(VARIANT) K(CASES)), KEYS(K(REPEAT)), 1, 1, 1, NULL, kind_correct_run,
                      "the student's output of each case verifies against the CPU reference"},
    [KIND_PERF] = {"perf", KEYS(K(VARIANT) K(CASES)), KEYS(K(FULL_RATIO) K(RUNS) K(REPS) K(BASELINE)), 1, 1, 1, perf_rule,
                   kind_perf_run, "the student's time against a baseline timed in the same run"},
    [KIND_PTX] = {"ptx", KEYS(K(KERNEL) K(PATTERN)), KEYS(K(MIN) K(MAX)), 0, 0, 1, has_bound, kind_ptx_run,
                  "PTX lines of one kernel matching a pattern, within bounds"},
    [KIND_SANITIZER] = {"sanitizer", KEYS(K(VARIANT) K(CASES) K(TOOL)), 0, 1, 0, 4, NULL, kind_sanitizer_run,
                        "compute-sanitizer reports nothing"},
    [KIND_MODEL] = {"model", KEYS(K(VARIANT) K(CASES)), 0, 0, 0, 1, NULL, kind_model_run,
                    "a CPU model built with the student's file accepts each case"},
    [KIND_METRIC] = {"metric", KEYS(K(VARIANT) K(CASES) K(KERNEL) K(METRIC)), KEYS(K(MIN) K(MAX)), 1, 0, 1, metric_rule,
                     kind_metric_run, "an Nsight Compute metric of one kernel, within bounds"},
};

const kind_def *kind_get(check_kind k) {
  if ((unsigned)k >= KIND_COUNT || !KINDS[k].name) return NULL;
  return &KINDS[k];
}

const kind_def *kind_find(const char *name) {
  for (int k = 0; k < KIND_COUNT; k++)
    if (KINDS[k].name && !strcmp(KINDS[k].name, name)) return &KINDS[k];
  return NULL;
}

void kinds_print(FILE *f) {
  fprintf(f, "every ");
  conf_keys_print(f, KEYS_EVERY_REQUIRED);
  fputc(' ', f);
  conf_keys_print(f, KEYS_EVERY_OPTIONAL);
  fputc('\n', f);
  for (int k = 0; k < KIND_COUNT; k++) {
    const kind_def *d = &KINDS[k];
    fprintf(f, "kind %s %s ", d->name, d->needs_gpu ? "gpu" : "cpu");
    conf_keys_print(f, d->required);
    fputc(' ', f);
    conf_keys_print(f, d->optional);
    fprintf(f, " %s\n", d->summary);
  }
}
