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
 *   - every count of compiled code the texts state, from the PTX (test_counts.c);
 *   - no lecture or handout states the answer to a written question (test_questions.c);
 *   - each handout says which design earns which perf points (test_full_marks.c);
 *   - each rule of grading is stated once, in docs/grading.md, and the limits
 *     of grade.conf's keys there are the parser's (test_stated_once.c).
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
  teaching_counts_tests(t);
  teaching_questions_tests(t);
  teaching_full_marks_tests(t);
  teaching_stated_once_tests(t);
  suite_add_tcase(s, t);
  return s;
}
