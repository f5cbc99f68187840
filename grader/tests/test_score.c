/* test_score.c: the scoring formula at its edges. */
#include <math.h>
#include <string.h>

#include "score.h"
#include "tests.h"

START_TEST(test_perf_at_threshold) {
  /* T exactly full_ratio * Tref earns full points; a hair slower earns less. */
  ck_assert_double_eq(score_perf(15, 1.1, 1.1, 1.0, 1), 15);
  ck_assert_double_lt(score_perf(15, 1.1, 1.1000001, 1.0, 1), 15);
  ck_assert_double_eq(score_perf(15, 1.1, 0.5, 1.0, 1), 15); /* faster: still full, never more */
}
END_TEST

START_TEST(test_perf_slower) {
  ck_assert_double_eq_tol(score_perf(10, 1.0, 2.0, 1.0, 1), 5.0, 1e-12);
  ck_assert_double_eq_tol(score_perf(10, 1.2, 2.4, 1.0, 1), 5.0, 1e-12);
  ck_assert_double_eq_tol(score_perf(10, 1.0, 100.0, 1.0, 1), 0.1, 1e-12);
}
END_TEST

START_TEST(test_perf_bad_times) {
  ck_assert_double_eq(score_perf(10, 1.1, 0, 1.0, 1), 0);
  ck_assert_double_eq(score_perf(10, 1.1, -1, 1.0, 1), 0);
  ck_assert_double_eq(score_perf(10, 1.1, NAN, 1.0, 1), 0);
  ck_assert_double_eq(score_perf(10, 1.1, INFINITY, 1.0, 1), 0);
  ck_assert_double_eq(score_perf(10, 1.1, 1.0, 0, 1), 0);  /* a broken reference time scores nothing */
  ck_assert_double_eq(score_perf(10, 1.1, 1.0, -1, 1), 0);
}
END_TEST

START_TEST(test_perf_incorrect_gets_nothing) {
  ck_assert_double_eq(score_perf(10, 1.1, 0.5, 1.0, 0), 0);
}
END_TEST

START_TEST(test_fraction) {
  ck_assert_double_eq(score_fraction(15, 7, 7), 15);
  ck_assert_double_eq_tol(score_fraction(15, 5, 7), 15.0 * 5 / 7, 1e-12);
  ck_assert_double_eq(score_fraction(15, 0, 7), 0);
  ck_assert_double_eq(score_fraction(15, 3, 0), 0);
  ck_assert_double_eq(score_fraction(15, 9, 7), 15); /* never above the points */
}
END_TEST

START_TEST(test_round) {
  ck_assert_double_eq(score_round(10.714285), 10.71);
  ck_assert_double_eq(score_round(2.005000001), 2.01);
  ck_assert_double_eq(score_round(0), 0);
}
END_TEST

START_TEST(test_all_or_nothing) {
  ck_assert_double_eq(score_all_or_nothing(5, 1), 5);
  ck_assert_double_eq(score_all_or_nothing(5, 0), 0);
}
END_TEST

/* The bounds of ptx and metric checks: inclusive at both ends, -1 is no bound. */
START_TEST(test_bounds) {
  ck_assert(score_in_bounds(18, 18, 18));
  ck_assert(!score_in_bounds(17, 18, 18));
  ck_assert(!score_in_bounds(19, 18, 18));
  ck_assert(score_in_bounds(0, -1, 0));
  ck_assert(!score_in_bounds(1, -1, 0));
  ck_assert(score_in_bounds(1e6, 1, -1));
  ck_assert(!score_in_bounds(0.5, 1, -1));
  char s[64];
  score_describe_bounds(18, 18, s, sizeof s);
  ck_assert_str_eq(s, "exactly 18");
  score_describe_bounds(1, 11, s, sizeof s);
  ck_assert_str_eq(s, "1 to 11");
  score_describe_bounds(5, -1, s, sizeof s);
  ck_assert_str_eq(s, "at least 5");
  score_describe_bounds(-1, 3000, s, sizeof s);
  ck_assert_str_eq(s, "at most 3000");
}
END_TEST

/* The worked example of docs/grading.md: 15 points, full_ratio 1.10. */
START_TEST(test_docs_example) {
  ck_assert_double_eq(score_round(score_perf(15, 1.10, 1.5, 1.0, 1)), 11.00);
  ck_assert_double_eq(score_round(score_perf(15, 1.10, 2.0, 1.0, 1)), 8.25);
  ck_assert_double_eq(score_round(score_perf(15, 1.10, 1.10, 1.0, 1)), 15);
}
END_TEST

Suite *score_suite(void) {
  Suite *s = suite_create("score");
  TCase *t = tcase_create("formula");
  tcase_add_test(t, test_perf_at_threshold);
  tcase_add_test(t, test_perf_slower);
  tcase_add_test(t, test_perf_bad_times);
  tcase_add_test(t, test_perf_incorrect_gets_nothing);
  tcase_add_test(t, test_fraction);
  tcase_add_test(t, test_round);
  tcase_add_test(t, test_all_or_nothing);
  tcase_add_test(t, test_bounds);
  tcase_add_test(t, test_docs_example);
  suite_add_tcase(s, t);
  return s;
}
