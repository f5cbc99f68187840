/* test_score.c: the scoring formula at its edges. */
#include <math.h>

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

Suite *score_suite(void) {
  Suite *s = suite_create("score");
  TCase *t = tcase_create("formula");
  tcase_add_test(t, test_perf_at_threshold);
  tcase_add_test(t, test_perf_slower);
  tcase_add_test(t, test_perf_bad_times);
  tcase_add_test(t, test_perf_incorrect_gets_nothing);
  tcase_add_test(t, test_fraction);
  tcase_add_test(t, test_round);
  suite_add_tcase(s, t);
  return s;
}
