/* test_spec02.c: 02's spec against the course's one CPU scan (spec_scan.h):
 * segments of the case's param L (an ad-hoc n: min(n, 1024)), each scanned on
 * its own, exclusive in the exclusive variant and inclusive in every other. */
#include "spec_scan.h"
#include "tests.h"
#include "variants.h"

extern const judge_spec judge_spec_02;

static int hillis_steele_shape(const judge_case *c, size_t *segment, int *inclusive) {
  if (c->variant == HS_GLOBAL) return 0; /* the same scan as the inclusive variant */
  *segment = c->param ? (size_t)c->param : (c->n < 1024 ? (size_t)c->n : 1024);
  *inclusive = c->variant != HS_EXCLUSIVE;
  return 1;
}

START_TEST(test_spec02_scans_check_right) { spec_scan_cases(&judge_spec_02, hillis_steele_shape, 5); }
END_TEST

Suite *spec02_suite(void) {
  Suite *s = suite_create("spec02");
  TCase *tc = tcase_create("scans");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_spec02_scans_check_right);
  suite_add_tcase(s, tc);
  return s;
}
