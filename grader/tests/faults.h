/* faults.h: the fault suite's fake course and its helpers (faults_main.c), shared
 * with the student-build faults (faults_build.c). */
#ifndef SCANLAB_FAULTS_H
#define SCANLAB_FAULTS_H

#include <check.h>
#include <jansson.h>

/* The grader under test (an absolute path). */
extern char grader[1024];
/* The checks of a fake assignment. */
extern const char *const CHECKS[];
extern const int N_CHECKS;

/* A throw-away course: 98-other (always behaves) and 99-fake (student: the
 * body of its fake runner, NULL behaves; reference likewise), each with
 * starter/NN/scan.cu, a fake nvcc (cuda/bin/nvcc) and a fake inspection that
 * the grader's build runs. The caller owns the path. */
char *make_course(const char *student, const char *reference, int timeout);
/* Runs the grader in root (extra: shell run just before it); its exit status. */
int grade(const char *root, const char *extra, double *seconds);
/* The newest results.json under root, parsed. */
json_t *latest(const char *root);
json_t *find_test(json_t *j, const char *assignment, const char *check);
/* Asserts the check's verdict and that its one-line reason holds `reason`. */
void expect(json_t *j, const char *assignment, const char *check, const char *verdict, const char *reason, const char *fault);
/* 98-other is graded in full. */
void bystander_graded(json_t *j, const char *fault);

/* The student-build faults (faults_build.c). */
TCase *faults_build_tcase(void);

#endif
