/* test_teaching.c: the teaching suite: the teaching content of the course
 * (lectures, handouts, answers, the guides) against the code and the grading
 * it describes, one file per subject:
 *   - every quote and listing is cut from the file or program it names
 *     (test_quotes.c), and every relative link points at something
 *     (test_links.c);
 *   - no lecture, handout or guide quotes solutions/ or shows a listing that
 *     repeats a solution's code, lecture examples included (test_leaks.c);
 *   - the points a handout states (no-GPU points, the untouched starter's) are
 *     the points grade.conf gives (test_stated_points.c), and its written
 *     questions' points those of the rubrics of ANSWERS.md (test_rubrics.c);
 *   - the student guide's sample runs name real checks, points and kernels
 *     (test_guide_rows.c);
 *   - what lecture 01 says about its examples' PTX (test_lecture01.c);
 *   - the counts assignment 01's texts state about code a student writes
 *     (test_counts01.c).
 * Their shared helpers are teaching_support.c's. Run from the repository root
 * after `make test-builds`. */
#include "course.h"
#include "teaching.h"

Suite *teaching_suite(void) {
  Suite *s = suite_create("teaching");
  TCase *t = tcase_create("notes");
  tcase_set_timeout(t, 120);
  teaching_quotes_tests(t);
  teaching_links_tests(t);
  teaching_leaks_tests(t);
  teaching_stated_points_tests(t);
  teaching_rubrics_tests(t);
  teaching_guide_rows_tests(t);
  teaching_lecture01_tests(t);
  teaching_counts01_tests(t);
  suite_add_tcase(s, t);
  return s;
}
