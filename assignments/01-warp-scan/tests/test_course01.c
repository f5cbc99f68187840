/* test_course01.c: the course's checks of assignment 01's own files: the PTX counts its
 * handout teaches, measured on the PTX the grader reads (build/{starter,solutions}/
 * 01-warp-scan/runner.ptx, make test-builds), and the student guide's row checks
 * (tests/test_guide_rows.c) on the rows of 01 an old guide showed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "teaching.h"
#include "tests.h"

/* The counts the 01 handout teaches, measured on the PTX the grader reads. */
static long count01(const char *src, const char *kernel, const char *pattern) {
  char path[256], err[256];
  snprintf(path, sizeof path, "build/%s/01-warp-scan/runner.ptx", src);
  long n = ptx_count(path, kernel, pattern, err, sizeof err);
  ck_assert_msg(n >= 0, "%s", err);
  return n;
}

#define VOLATILE_SHARED "^[[:space:]]*(ld|st)\\.volatile\\.shared"
#define ANY_SHARED "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared"

START_TEST(test_01_ptx_counts) {
  /* The starter's scratch scan has no volatile accesses: the compiler was free
   * to cache and drop them, which is the bug. */
  ck_assert_int_eq(count01("starter", "scan_scratch", VOLATILE_SHARED), 0);
  ck_assert_int_lt(count01("starter", "scan_scratch", ANY_SHARED), 18);
  /* Task 1 and 2: 18 and 11 shared loads/stores. */
  ck_assert_int_eq(count01("solutions", "scan_scratch", VOLATILE_SHARED), 18);
  ck_assert_int_eq(count01("solutions", "scan_scratch_register", VOLATILE_SHARED), 11);
  /* Task 2 check: the starter fails it (no volatile access at all). */
  ck_assert_int_eq(count01("starter", "scan_scratch_register", VOLATILE_SHARED), 0);
  /* Task 3: five shuffles and no shared memory; warp barriers in the syncwarp scan. */
  ck_assert_int_eq(count01("solutions", "scan_shfl", "shfl\\.sync\\.up"), 5);
  ck_assert_int_eq(count01("solutions", "scan_shfl", ANY_SHARED), 0);
  ck_assert_int_eq(count01("starter", "scan_shfl", "shfl\\.sync\\.up"), 0);
  ck_assert_int_gt(count01("solutions", "scan_syncwarp", "bar\\.warp\\.sync"), 0);
  ck_assert_int_eq(count01("starter", "scan_syncwarp", "bar\\.warp\\.sync"), 0);
}
END_TEST

/* The student guide's row checks (tests/test_guide_rows.c) on 01's old guide: a row of
 * a kernel the runner no longer launches, and of its 11-check table, are caught. */
START_TEST(test_guide_rows_fixture) {
  char why[512];
  ck_assert(guide_kernel_launched("01-warp-scan", "scan4_syncwarp"));
  ck_assert(!guide_kernel_launched("01-warp-scan", "scan_syncwarp")); /* a PTX probe, never launched */
  ck_assert(!guide_row_fits("01-warp-scan",
                            "  [ 6/11] racecheck-syncwarp       sanitizer FAIL       0.00/5.00   racecheck reports: "
                            "Warning: Race reported between Read access at scan_syncwarp+0x1a0",
                            why, sizeof why));
  ck_assert(!guide_row_fits("01-warp-scan",
                            "  [ 7/12] racecheck-syncwarp       sanitizer FAIL       0.00/5.00   racecheck reports: "
                            "Warning: Race reported between Read access at scan_syncwarp+0x1a0",
                            why, sizeof why));
  ck_assert_msg(strstr(why, "scan_syncwarp") != NULL, "%s", why);
  ck_assert(!guide_row_fits("01-warp-scan",
                            "  [ 1/12] correct-scratch          correct   PARTIAL    2.14/15.00  1/7 cases correct", why,
                            sizeof why));
}
END_TEST

Suite *course01_suite(void) {
  Suite *s = suite_create("course01");
  TCase *t = tcase_create("ptx and guide rows");
  tcase_add_test(t, test_01_ptx_counts);
  tcase_add_test(t, test_guide_rows_fixture);
  suite_add_tcase(s, t);
  return s;
}
