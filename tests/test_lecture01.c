/* test_lecture01.c: the teaching suite's lecture 01 check (test_teaching.c):
 * what lecture 01 says its warp-minimum example compiles to. Run from the
 * repository root after `make test-builds`. */
#include <stdio.h>

#include "ptx.h"
#include "teaching.h"
#include "tests.h"

/* ---------------------------------------------------------------- lecture examples' PTX
 *
 * Lecture 01 says what its warp-minimum example compiles to. */
START_TEST(test_warp_min_reduce_ptx) {
  static const struct {
    const char *kernel, *pattern;
    long want;
  } rows[] = {
      {"warp_min_shfl", "shfl\\.sync\\.bfly", 5},
      {"warp_min_shfl", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared", 0},
      {"warp_min_syncwarp", "bar\\.warp\\.sync", 6},
      {"warp_min_syncwarp", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared", 12},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char err[256];
    long n = ptx_count("build/lectures/warp_min_reduce.ptx", rows[i].kernel, rows[i].pattern, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(n == rows[i].want, "%s: %ld lines match %s, lecture 01 says %ld", rows[i].kernel, n,
                  rows[i].pattern, rows[i].want);
  }
}
END_TEST

void teaching_lecture01_tests(TCase *t) { tcase_add_test(t, test_warp_min_reduce_ptx); }
