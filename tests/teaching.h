/* teaching.h: the files of the teaching suite (test_teaching.c): each adds its
 * tests to the suite's one case, and the helpers they share (teaching_support.c). */
#ifndef SCANLAB_TEACHING_H
#define SCANLAB_TEACHING_H

#include <check.h>
#include <stddef.h>

#include "conf.h"

/* The tests of each subject, added to the teaching suite's case in this order. */
void teaching_quotes_tests(TCase *t);        /* test_quotes.c */
void teaching_links_tests(TCase *t);         /* test_links.c */
void teaching_leaks_tests(TCase *t);         /* test_leaks.c */
void teaching_stated_points_tests(TCase *t); /* test_stated_points.c */
void teaching_rubrics_tests(TCase *t);       /* test_rubrics.c */
void teaching_guide_rows_tests(TCase *t);    /* test_guide_rows.c */
void teaching_lecture01_tests(TCase *t);     /* test_lecture01.c */
void teaching_counts_tests(TCase *t);        /* test_counts.c */
void teaching_questions_tests(TCase *t);     /* test_questions.c */
void teaching_full_marks_tests(TCase *t);    /* test_full_marks.c */
void teaching_stated_once_tests(TCase *t);   /* test_stated_once.c */

/* The text with newlines as spaces (malloc'd), so that a claim may wrap. */
char *flatten(const char *text, size_t len);
/* Loads assignments/NAME/grade.conf into a; fails the test when it does not load. */
void load_conf(const char *assignment, assignment_conf *a);
/* The assignments: folders of assignments/ with a grade.conf; at least one. */
int list_assignments(char names[][64], int cap);
/* The student guide's sample rows (test_guide_rows.c). Whether some CUDA source of the
 * assignment (its runner, starter or solution) launches the kernel; whether a grader row
 * ("[ i/N] name kind VERDICT x/y reason") fits check i of the assignment, why says how not. */
int guide_kernel_launched(const char *assignment, const char *kernel);
int guide_row_fits(const char *assignment, const char *row, char *why, size_t cap);

#endif
