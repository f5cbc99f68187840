/* report.h: everything the grader writes about a run.
 *
 * Under grade-results/<timestamp>/: results.json (Gradescope's format),
 * report.md (for people), results.tsv (for scripts: the GPU test tier reads it
 * with awk), perf.dat and perf.png (gnuplot; skipped with a note when gnuplot is
 * missing). The directory is written under a temporary name and renamed when
 * complete; grade-results/latest is then switched to it atomically. */
#ifndef SCANLAB_REPORT_H
#define SCANLAB_REPORT_H

#include <stdio.h>

#include "checks.h"

#define REPORT_MAX_ASSIGNMENTS 16

typedef struct assignment_report {
  char name[CONF_NAME_MAX];
  const assignment_conf *conf; /* NULL when its grade.conf is broken */
  char conf_error[512];
  check_result results[CONF_MAX_CHECKS];
  int n_results;
} assignment_report;

typedef struct run_report {
  const grade_env *env;
  char started[40];  /* ISO 8601 */
  char stamp[32];    /* directory name: YYYYmmdd-HHMMSS */
  double elapsed_s;
  int interrupted;
  assignment_report assignments[REPORT_MAX_ASSIGNMENTS];
  int n_assignments;
  char plot_note[200]; /* what happened to perf.png */
  char tmp[1024];      /* the results folder being written, once report_open made it */
} run_report;

void report_totals(const run_report *r, double *score, double *max);
void report_json(FILE *f, const run_report *r);
void report_markdown(FILE *f, const run_report *r);
void report_tsv(FILE *f, const run_report *r);

/* Makes the temporary results folder under results_root before the checks run,
 * so that they can save files (images) into it. Returns 0 with its path in
 * r->tmp, or -1 (report_write then tries again and says why). */
int report_open(run_report *r, const char *results_root);

/* Writes the whole directory under results_root. Returns 0 with the final
 * directory in dir, or -1 with a one-line reason in err; on failure nothing
 * partial is left behind and the previous results are untouched. */
int report_write(run_report *r, const char *results_root, char *dir, size_t dircap, char *err, size_t errcap);

#endif
