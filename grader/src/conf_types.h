/* conf_types.h: what a grade.conf is read into: the limits, the kinds and keys,
 * and the assignment's and each check's record (conf.h reads it).
 *
 * The bottom of the config modules: it includes nothing of the grader, so the
 * kind table's data (kind_table.h) and the parser's shared state (conf_parse.h)
 * use it while conf.c uses them. */
#ifndef SCANLAB_CONF_TYPES_H
#define SCANLAB_CONF_TYPES_H

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

/* How the runner takes the student's file ([assignment] link, build.h). */
typedef enum student_link {
  LINK_NONE,   /* not given: grade.conf is refused */
  LINK_INLINE, /* runner.cu #includes the staged file, so the course kernels inline its __device__ functions */
  LINK_OBJECT  /* the file is compiled alone into student.o and linked with the runner */
} student_link;

typedef struct assignment_conf {
  char path[512];
  int line; /* of the [assignment] header */
  char name[CONF_NAME_MAX];
  /* the student's build (build.h): the file the handout names, compiled alone as
   * the student object (the folder's other files are only there to be #included) */
  char student[CONF_NAME_MAX];
  student_link link;
  /* the rest of its build, declared (each a path in the assignment's folder, "" when not
   * declared; the runner is always runner/runner.cu): a trusted CPU program built with the
   * course library (judge/NAME.cu), the tables program it runs, linked with the student's
   * object (runner/NAME.cu), and the file the bench build of runner.cu includes (runner/NAME.cu) */
  char model[CONF_NAME_MAX], model_tables[CONF_NAME_MAX], baselines[CONF_NAME_MAX];
  char title[CONF_TEXT_MAX];
  double timeout_s;
  /* libraries the student's files may not use (cub, thrust): a file that does
   * scores 0 on every check, with the file and line (checks.c) */
  char forbid[CONF_MAX_REQUIRES][16];
  int n_forbid;
  int n_checks;
  check_conf checks[CONF_MAX_CHECKS];
} assignment_conf;

#endif
