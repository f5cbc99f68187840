/* test_spec01.c: 01's spec against the course's one CPU scan (spec_scan.h):
 * every variant is a warp's own inclusive scan of 32 consecutive elements. */
#include "spec_scan.h"
#include "tests.h"

extern const judge_spec judge_spec_01;

/* Every variant, every case: groups of 32 (a warp each), inclusive. */
static int warp_scan_shape(const judge_case *c, size_t *segment, int *inclusive) {
  (void)c;
  *segment = 32;
  *inclusive = 1;
  return 1;
}

START_TEST(test_spec01_scans_check_right) { spec_scan_cases(&judge_spec_01, warp_scan_shape, 5); }
END_TEST

Suite *spec01_suite(void) {
  Suite *s = suite_create("spec01");
  TCase *tc = tcase_create("scans");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_spec01_scans_check_right);
  suite_add_tcase(s, tc);
  return s;
}
