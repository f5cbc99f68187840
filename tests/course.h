/* course.h: the helpers only the course's tests (tests/: lectures, handouts, docs,
 * figures, worked examples, the repository's rules, the instructor's tools) use; their
 * suites run in the one unit binary with the grader's (tests.h lists them all). */
#ifndef SCANLAB_COURSE_H
#define SCANLAB_COURSE_H

#include <check.h>

#include "conf.h"

/* The assignment a test that grades end to end (make grade, grade-all, the autograder)
 * hands in: the first assignments/NN-name/grade.conf in glob order, loaded into a (its
 * name, its number the name's first two characters, and the file a student hands in,
 * a->student). Fails the test when there is none. */
void first_assignment(assignment_conf *a);

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
