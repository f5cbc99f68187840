/* course.h: the Check suites of the course's tests (tests/: lectures, handouts,
 * docs, figures, worked examples, the repository's rules, the instructor's
 * tools), run by the one unit binary with the grader's (tests.h), and the
 * helpers only they use. */
#ifndef SCANLAB_COURSE_H
#define SCANLAB_COURSE_H

#include <check.h>

Suite *repo_suite(void);       /* test_repo.c */
Suite *teaching_suite(void);   /* test_teaching.c, one file per subject */
Suite *lectures_suite(void);   /* test_lectures.c */
Suite *lecture05_suite(void);  /* test_lecture05.c */
Suite *lecture06_suite(void);  /* test_lecture06.c */
Suite *instructor_suite(void); /* test_instructor.c */
Suite *handout_suite(void);    /* test_handout.c */
Suite *figures_suite(void);    /* test_figures.c */
Suite *worked_suite(void);     /* test_worked.c */
Suite *layout_suite(void);     /* test_layout.c */

/* Lecture examples (build/lectures/EX, run from the repo root). Runs one with an
 * environment prefix and arguments; returns its exit status, its stdout and
 * stderr (malloc'd) in *out and *err. */
int lecture_example_run(const char *env, const char *ex, const char *args, char **out, char **err);
/* Asserts that EX rejects an unknown argument: exit 2, one line on stderr
 * saying it takes no arguments, nothing on stdout. */
void lecture_example_check_usage(const char *ex);
/* Asserts that EX without a visible device exits 3 with one
 * "file:line: call: reason" line on stderr and no table on stdout. */
void lecture_example_check_no_gpu(const char *ex);

#endif
