/* conf.h: an assignment's grade.conf, read with inih and checked strictly.
 *
 *   [assignment]                 name, title, timeout (seconds per run)
 *   [correct-shfl]               one section per check; the section name is the check's name
 *   kind = correct               a row of the kind table (kind_table.h; `grade --kinds` prints it)
 *   points = 15
 *   ...                          the kind's own keys (docs/grading.md lists them)
 *
 * The keys a check section may hold are one table in conf_keys.c (name, key bit,
 * parser); which of them a kind requires or allows is its row in kind_table.c.
 * Every error is reported as "file:line: reason". */
#ifndef SCANLAB_CONF_H
#define SCANLAB_CONF_H

#include <stddef.h>
#include <stdio.h>

#define CONF_NAME_MAX 64
#define CONF_TEXT_MAX 160
#define CONF_MAX_CHECKS 32
#define CONF_MAX_CASES 32
#define CONF_MAX_REPEAT 20
#define CONF_MAX_REQUIRES 4

typedef enum check_kind { KIND_CORRECT, KIND_PERF, KIND_PTX, KIND_SANITIZER, KIND_MODEL, KIND_METRIC, KIND_COUNT } check_kind;

/* The keys of a check section; conf.c's table gives each its name(s) and parser. */
typedef enum conf_key {
  KEY_KIND, KEY_POINTS, KEY_TITLE, KEY_TIMEOUT, KEY_VISIBILITY, KEY_EXPECT_STARTER,
  KEY_VARIANT, KEY_CASES, KEY_REPEAT, KEY_FULL_RATIO, KEY_RUNS, KEY_REPS, KEY_BASELINE,
  KEY_KERNEL, KEY_PATTERN, KEY_MIN, KEY_MAX, KEY_TOOL, KEY_METRIC, KEY_REQUIRES, KEY_FLOOR, KEY_COUNT
} conf_key;
#define KEY_BIT(k) (1u << (k))
/* Every check takes these, whatever its kind. */
#define KEYS_EVERY_REQUIRED (KEY_BIT(KEY_KIND) | KEY_BIT(KEY_POINTS))
#define KEYS_EVERY_OPTIONAL \
  (KEY_BIT(KEY_TITLE) | KEY_BIT(KEY_TIMEOUT) | KEY_BIT(KEY_VISIBILITY) | KEY_BIT(KEY_EXPECT_STARTER) | KEY_BIT(KEY_REQUIRES))

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
  /* checks above this one that must pass for its points to count (checks.h) */
  char requires[CONF_MAX_REQUIRES][CONF_NAME_MAX];
  int n_requires;
  /* correct, perf, sanitizer, model, metric */
  char variant[CONF_NAME_MAX];
  char cases[CONF_MAX_CASES][CONF_NAME_MAX];
  int n_cases;
  /* correct */
  int repeat; /* student runs, each with a fresh seed (seed + run index) */
  /* perf */
  double full_ratio;
  int runs; /* baseline/student alternations */
  int reps; /* 0: the case's default */
  char baseline[CONF_NAME_MAX]; /* "": the reference's run of the same variant */
  /* a sample below floor x the reference's device copy of the call's
   * unavoidable bytes fails the check (judge --floor) */
  double floor;
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
  /* libraries the student's files may not use (cub, thrust): a file that does
   * scores 0 on every check, with the file and line (checks.c) */
  char forbid[CONF_MAX_REQUIRES][16];
  int n_forbid;
  int n_checks;
  check_conf checks[CONF_MAX_CHECKS];
} assignment_conf;

/* Reads and validates path. Returns 0, or -1 with "path:line: reason" in err. */
int conf_load(const char *path, assignment_conf *a, char *err, size_t errcap);

/* The kind's name, from the kind table; "?" out of range. */
const char *conf_kind_name(check_kind k);
/* 1 when the kind needs a CUDA device to run. */
int conf_kind_needs_gpu(check_kind k);
/* The key's name in grade.conf (its first spelling in the key table). */
const char *conf_key_name(conf_key k);
/* Writes the names of the keys in mask, comma-separated ("-" when none). */
void conf_keys_print(FILE *f, unsigned mask);
double conf_total_points(const assignment_conf *a);

#endif
