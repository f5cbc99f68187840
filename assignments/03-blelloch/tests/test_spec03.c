/* test_spec03.c: 03's spec against the course's one CPU scan (spec_scan.h):
 * segments of the case's param L (an ad-hoc n: 2048, a block's tile), each
 * scanned on its own, exclusive, in every variant. */
#include "spec_scan.h"
#include "tests.h"

extern const judge_spec judge_spec_03;

static int blelloch_shape(const judge_case *c, size_t *segment, int *inclusive) {
  *segment = c->param ? (size_t)c->param : 2048;
  *inclusive = 0;
  return 1;
}

START_TEST(test_spec03_scans_check_right) { spec_scan_cases(&judge_spec_03, blelloch_shape, 5); }
END_TEST

Suite *spec03_suite(void) {
  Suite *s = suite_create("spec03");
  TCase *tc = tcase_create("scans");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_spec03_scans_check_right);
  suite_add_tcase(s, tc);
  return s;
}
