/* kinds.h: the table of check kinds, one row per kind.
 *
 * A row holds everything about a kind: its name in grade.conf, the keys it
 * requires and allows (beyond KEYS_EVERY_*), whether it needs a GPU and a sane
 * reference, its time-limit factor, an extra rule for its section, and the
 * function that runs it. The config parser and validator (conf.c), the dispatch
 * and the no-GPU gate (checks.c), `grade --kinds` and the test that holds
 * docs/grading.md to the table all read this one table. */
#ifndef SCANLAB_KINDS_H
#define SCANLAB_KINDS_H

#include <stdio.h>

#include "checks.h"

/* A check's output being written (a memory stream), and the helper that ends a
 * check with its verdict, score and one-line reason. */
typedef struct story {
  char *buf;
  size_t len;
  FILE *f;
} story;

void check_finish(check_result *r, story *s, verdict v, double score, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

typedef void (*kind_run_fn)(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
/* An extra rule for a section once it is read: 1, or 0 with why. */
typedef int (*kind_rule_fn)(const check_conf *c, char *why, size_t cap);

typedef struct kind_def {
  const char *name;
  unsigned required, optional; /* KEY_BIT()s beyond those every check takes */
  int needs_gpu;
  int needs_reference; /* not scored when the reference failed its start-up test */
  double timeout_factor; /* of the assignment's timeout, when the check sets none */
  kind_rule_fn rule;     /* NULL: none */
  kind_run_fn run;
  const char *summary;   /* one line, for `grade --kinds` */
} kind_def;

extern const kind_def KINDS[KIND_COUNT];

/* The row of a kind, or NULL when k is not one: an unknown kind is an error, never a fallback. */
const kind_def *kind_get(check_kind k);
/* The row named name, or NULL. */
const kind_def *kind_find(const char *name);
/* `grade --kinds`: the table in the machine format of docs/grading.md. */
void kinds_print(FILE *f);

/* The run functions (kind_correct.c, kind_perf.c, kind_tools.c). */
void kind_correct_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_perf_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_ptx_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_sanitizer_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_model_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_metric_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);

#endif
