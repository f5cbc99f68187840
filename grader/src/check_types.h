/* check_types.h: the records of grading one assignment: the environment
 * (grade_env), the assignment's paths and build state (assignment_ctx), a check's
 * verdict and result (check_result).
 *
 * Below every module that grades: the driver (checks.h), the kinds (kinds.h),
 * the runner runs (runs.h), the report and the schedule read them, and
 * this file includes only the config (conf.h). */
#ifndef SCANLAB_CHECK_TYPES_H
#define SCANLAB_CHECK_TYPES_H

#include <stdint.h>

#include "build.h"
#include "conf.h"

#define GRADE_PATH_MAX 1024

typedef enum verdict {
  V_PASS,     /* full points */
  V_PARTIAL,  /* some points */
  V_FAIL,     /* no points, the student's code is at fault */
  V_UNGRADED, /* not run here (no GPU, no compute-sanitizer): 0 points, never passed */
  V_ERROR,    /* not scored: the reference or the set-up is broken; says why */
  V_SKIPPED   /* not run: grading was interrupted */
} verdict;

typedef struct grade_env {
  const char *root;      /* repository (or handout) root */
  const char *src;       /* "starter" or "solutions": whose files are graded */
  int have_gpu;
  char gpu_note[256];    /* the device, or why there is none */
  uint64_t seed;         /* fresh per run; printed so a failure can be replayed */
  char sanitizer[GRADE_PATH_MAX]; /* compute-sanitizer, or "" when absent */
  char ncu[GRADE_PATH_MAX];       /* Nsight Compute's ncu, or "" when absent */
  double timeout_scale;  /* multiplies every limit (slow machines) */
  char save_root[GRADE_PATH_MAX]; /* the results folder being written (images go under it); "" when none */
} grade_env;

typedef struct assignment_ctx {
  const grade_env *env;
  const assignment_conf *conf;
  char dir[GRADE_PATH_MAX];       /* assignments/NN */
  char label[GRADE_PATH_MAX];     /* the student's folder as messages name it (starter/NN) */
  char judge[GRADE_PATH_MAX];     /* build/grader/judge: makes the inputs, checks the outputs (trusted) */
  char student[GRADE_PATH_MAX];   /* build/<src>/NN/runner: the runner with the student's code (untrusted) */
  char reference[GRADE_PATH_MAX]; /* assignments/NN/ref/reference: the runner with the solution */
  char ptx[GRADE_PATH_MAX];       /* build/<src>/NN/runner.ptx */
  char model[GRADE_PATH_MAX];     /* build/<src>/NN/model: a CPU program built with the student's file */
  const build_result *build;      /* the student's build (build.h): its outcome, handed over as data */
  int student_ok;                 /* the build is ok and the files use no forbidden library */
  int build_failed;               /* the build did not give a runner: no check scores, GPU or not */
  char student_error[2048];       /* why not: the build's reason and what the tools printed, or the forbidden library */
  int reference_ok;
  char reference_error[512];
  char ref_slugs[64][CONF_NAME_MAX]; /* the variants and baselines the reference's --list names */
  int n_ref_slugs;
} assignment_ctx;

typedef struct check_result {
  const check_conf *conf;
  verdict v;
  double score, max;
  char reason[256]; /* one line, for the table */
  char *output;     /* the full story (malloc'd), for results.json and report.md */
  int has_perf;
  double t_student, t_ref;
  int requires_unapplied; /* a check it requires was not graded here, so its verdict stands unchecked */ /* t_ref: the baseline's time */
  char baseline[96];       /* what t_ref is: "reference", "reference SLUG" or "copy_d2d" */
  char *files;             /* files the check saved under the results folder, one relative path a line (malloc'd), or NULL */
  double seconds;          /* wall-clock time the check took: where a grading's time goes */
} check_result;

#endif
