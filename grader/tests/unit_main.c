/* unit_main.c: runs the unit suites of the CPU tier, the grader's (grader/tests/,
 * tests.h) and the course's (tests/, course.h), in one binary; exits nonzero on
 * any failure. */
#include <stdlib.h>

#include "course.h"
#include "tests.h"

/* test_includes.c: the grader's modules include one another without a circle. */
Suite *includes_suite(void);

/* test_subproc.c: grader/lib/subproc.h, the one fork and exec of the course's host code. */
Suite *subproc_suite(void);

int main(void) {
  SRunner *sr = srunner_create(lib_suite());
  srunner_add_suite(sr, conf_suite());
  srunner_add_suite(sr, score_suite());
  srunner_add_suite(sr, json_suite());
  srunner_add_suite(sr, proc_suite());
  srunner_add_suite(sr, subproc_suite());
  srunner_add_suite(sr, judge_suite());
  srunner_add_suite(sr, specs_suite());
  srunner_add_suite(sr, repo_suite());
  srunner_add_suite(sr, image_suite());
  srunner_add_suite(sr, scene_suite());
  srunner_add_suite(sr, render_suite());
  srunner_add_suite(sr, compact_suite());
  srunner_add_suite(sr, teaching_suite());
  srunner_add_suite(sr, lectures_suite());
  srunner_add_suite(sr, lecture05_suite());
  srunner_add_suite(sr, lecture06_suite());
  srunner_add_suite(sr, instructor_suite());
  srunner_add_suite(sr, handout_suite());
  srunner_add_suite(sr, r05_suite());
  srunner_add_suite(sr, inspect_suite());
  srunner_add_suite(sr, build_suite());
  srunner_add_suite(sr, sandbox_suite());
  srunner_add_suite(sr, model03_suite());
  srunner_add_suite(sr, figures_suite());
  srunner_add_suite(sr, worked_suite());
  srunner_add_suite(sr, includes_suite());
  srunner_add_suite(sr, layout_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
