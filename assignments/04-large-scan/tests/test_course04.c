/* test_course04.c: the course's checks of assignment 04's own files: the GPU fault
 * lookback-lastrow's PTX against the solution's (make test-builds builds both), and
 * make bench's table (tools/bench-table.awk) on a fixed bench output of 04's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "tests.h"

/* The GPU fault lookback-lastrow (gpu-tier.sh) has a wrong look-back to the
 * nearest PREFIX, window after window (fault_look_back, in its own kernel
 * fault_scan_packed); the solution's kernels look back to the block's own
 * previous tile instead and read no windows. So the fault's scan kernel must
 * ballot over its windows, and the solution's must not: were the fault's
 * function not called, the GPU tier would find the fault's scan right. */
START_TEST(test_04_fault_ptx) {
  static const char FAULT[] = "_Z17fault_scan_packedPKjPjmjPv", KERNEL[] = "_Z14ls_scan_packedPKjPjmjjPv",
                    BALLOT[] = "^[[:space:]]*vote\\.sync\\.ballot";
  char err[256];
  long fault = ptx_count("build/gpu-faults/lookback-lastrow/04-large-scan/student.ptx", FAULT, BALLOT, err, sizeof err);
  ck_assert_msg(fault >= 0, "%s", err);
  ck_assert_msg(fault > 0, "the lookback-lastrow fault's %s has no ballot: its windowed look-back is not compiled in", FAULT);
  long sol = ptx_count("build/solutions/04-large-scan/runner.ptx", KERNEL, BALLOT, err, sizeof err);
  ck_assert_msg(sol >= 0, "%s", err);
  ck_assert_msg(sol == 0, "the solution's %s has %ld ballots: its look-back reads windows again", KERNEL, sol);
}
END_TEST

/* make bench's joined table (tools/bench-table.awk) on a fixed bench output of 04 (bench-04.txt): the
 * columns, the ratios to the copy and to the first baseline, the mark on a
 * row whose output was wrong, and the gnuplot data file. */
START_TEST(test_bench_table) {
  char *dir = make_temp_dir("benchtab"), cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "awk -v dat='%s/b.dat' -f tools/bench-table.awk assignments/04-large-scan/tests/bench-04.txt > '%s/t.txt'",
           dir, dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/t.txt", dir);
  char *t = read_text(path);
  ck_assert_msg(t && strstr(t, "n                       copy cub_exclusive_sum ref:decoupled_lookback you:decoupled_lookback"),
                "header: %s", t);
  ck_assert_msg(strstr(t, "16777216               51.1            69.2            60.0           200.0!"), "us: %s", t);
  ck_assert_msg(strstr(t, "time / cub_exclusive_sum\n"), "no baseline table: %s", t);
  ck_assert_msg(strstr(t, "16777216               0.74            1.00            0.87            2.89!"), "x_cub: %s", t);
  snprintf(path, sizeof path, "%s/b.dat", dir);
  char *d = read_text(path);
  ck_assert_msg(d && strstr(d, "16777216 51.1 69.2 60 200\n"), "dat: %s", d);
  snprintf(cmd, sizeof cmd, "printf 'nothing\\n' | awk -f tools/bench-table.awk 2> /dev/null");
  ck_assert_msg(run_shell(cmd) != 0, "no bench rows must be an error");
  free(t);
  free(d);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *course04_suite(void) {
  Suite *s = suite_create("course04");
  TCase *t = tcase_create("fault ptx and bench table");
  tcase_add_test(t, test_04_fault_ptx);
  tcase_add_test(t, test_bench_table);
  suite_add_tcase(s, t);
  return s;
}
