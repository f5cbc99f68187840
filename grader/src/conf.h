/* conf.h: an assignment's grade.conf, read with inih and checked strictly.
 *
 *   [assignment]                 name, title, timeout (seconds per run)
 *   [correct-shfl]               one section per check; the section name is the check's name
 *   kind = correct               correct | perf | ptx | sanitizer
 *   points = 15
 *   ...                          the kind's own keys (docs/grading.md lists them)
 *
 * Every error is reported as "file:line: reason". */
#ifndef SCANLAB_CONF_H
#define SCANLAB_CONF_H

#include <stddef.h>

#define CONF_NAME_MAX 64
#define CONF_TEXT_MAX 160
#define CONF_MAX_CHECKS 32
#define CONF_MAX_CASES 32

typedef enum check_kind { KIND_CORRECT, KIND_PERF, KIND_PTX, KIND_SANITIZER, KIND_MODEL, KIND_METRIC, KIND_COUNT } check_kind;

typedef enum expect { EXPECT_ANY, EXPECT_PASS, EXPECT_FAIL } expect;

typedef struct check_conf {
  char name[CONF_NAME_MAX];
  int line; /* of its [section] header */
  check_kind kind;
  char title[CONF_TEXT_MAX];
  double points;
  double timeout_s; /* per child process */
  char visibility[24];
  expect expect_starter; /* what the starter must do in the test tiers */
  /* correct, perf, sanitizer, model */
  char variant[CONF_NAME_MAX];
  char cases[CONF_MAX_CASES][CONF_NAME_MAX];
  int n_cases;
  /* perf */
  double full_ratio;
  int runs; /* reference/student alternations */
  int reps; /* 0: the case's default */
  /* ptx */
  char kernel[CONF_NAME_MAX];
  char pattern[CONF_TEXT_MAX];
  long min, max; /* -1: no bound */
  /* sanitizer */
  char tool[16];
  /* metric: ncu metric names (comma-separated, summed) for kernel `kernel`, bounded by min/max */
  char metric[CONF_TEXT_MAX];
} check_conf;

typedef struct assignment_conf {
  char path[512];
  char name[CONF_NAME_MAX];
  char title[CONF_TEXT_MAX];
  double timeout_s;
  int n_checks;
  check_conf checks[CONF_MAX_CHECKS];
} assignment_conf;

/* Reads and validates path. Returns 0, or -1 with "path:line: reason" in err. */
int conf_load(const char *path, assignment_conf *a, char *err, size_t errcap);

const char *conf_kind_name(check_kind k);
/* 1 when the kind needs a CUDA device to run. */
int conf_kind_needs_gpu(check_kind k);
double conf_total_points(const assignment_conf *a);

#endif
