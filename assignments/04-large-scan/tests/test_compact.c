/* test_compact.c: the CPU reference of find_repeats (compact_cpu). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compact_cpu.h"
#include "prng.h"
#include "tests.h"

#define SENTINEL 0xDEADBEEFu

START_TEST(test_repeats_known) {
  uint32_t a[] = {5, 5, 1, 2, 2, 2, 9, 0xFFFFFFFFu, 0xFFFFFFFFu, 5};
  uint32_t want[] = {0, 3, 4, 7};
  uint32_t got[10];
  for (int i = 0; i < 10; i++) got[i] = SENTINEL;
  ck_assert_uint_eq(compact_cpu_repeats(a, 10, got), 4);
  ck_assert_mem_eq(got, want, sizeof want);
  for (int i = 4; i < 10; i++) ck_assert_msg(got[i] == SENTINEL, "indices[%d] written past the count", i);
}
END_TEST

START_TEST(test_repeats_none_and_all) {
  enum { N = 1000 };
  static uint32_t a[N], got[N];
  for (uint32_t i = 0; i < N; i++) a[i] = 0xFFFFFFFFu - i; /* strictly decreasing: no repeats */
  ck_assert_uint_eq(compact_cpu_repeats(a, N, got), 0);
  for (uint32_t i = 0; i < N; i++) a[i] = 0xFFFFFFFEu;     /* all equal: every i < n - 1 */
  ck_assert_uint_eq(compact_cpu_repeats(a, N, got), N - 1);
  for (uint32_t i = 0; i < N - 1; i++) ck_assert_msg(got[i] == i, "indices[%u] = %u, want %u", i, got[i], i);
}
END_TEST

START_TEST(test_repeats_short_inputs) {
  uint32_t a[] = {7, 7}, got[2] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(compact_cpu_repeats(a, 0, got), 0); /* n = 0 */
  ck_assert_uint_eq(compact_cpu_repeats(a, 1, got), 0); /* n = 1: no pair; a[1] is never read */
  ck_assert_uint_eq(got[0], SENTINEL);
  ck_assert_uint_eq(compact_cpu_repeats(a, 2, got), 1);
  ck_assert_uint_eq(got[0], 0);
  ck_assert_uint_eq(got[1], SENTINEL);
  ck_assert_uint_eq(compact_cpu_repeats(a, 2, NULL), 1); /* count only */
}
END_TEST

/* Random inputs over a small alphabet (so repeats occur): every index returned
 * is a repeat, they increase, and every repeat is returned (checked through a
 * per-index mark, not by recounting the same way). */
static const size_t SIZES[] = {2, 3, 31, 32, 33, 1000, 4097, 65537};

START_TEST(test_repeats_random) {
  size_t n = SIZES[_i];
  uint32_t *a = malloc(n * sizeof *a), *got = malloc(n * sizeof *got);
  char *mark = calloc(n, 1);
  ck_assert(a && got && mark);
  prng g;
  prng_seed(&g, 1000 + n);
  for (size_t i = 0; i < n; i++) a[i] = 0xFFFFFFF0u + prng_below(&g, 4); /* near 2^32 */
  size_t count = compact_cpu_repeats(a, n, got);
  ck_assert_uint_eq(count, compact_cpu_repeats(a, n, NULL));
  if (n >= 31) ck_assert_msg(count > 0 && count < n - 1, "n=%zu: count %zu is not a mix", n, count);
  for (size_t k = 0; k < count; k++) {
    ck_assert_msg(got[k] + 1 < n && a[got[k]] == a[got[k] + 1], "n=%zu: indices[%zu] = %u is not a repeat", n, k, got[k]);
    ck_assert_msg(k == 0 || got[k] > got[k - 1], "n=%zu: indices[%zu] = %u does not increase", n, k, got[k]);
    mark[got[k]] = 1;
  }
  for (size_t i = 0; i + 1 < n; i++)
    ck_assert_msg(mark[i] || a[i] != a[i + 1], "n=%zu: repeat at %zu missing", n, i);
  free(a), free(got), free(mark);
}
END_TEST

Suite *compact_suite(void) {
  Suite *s = suite_create("compact");
  TCase *t = tcase_create("find_repeats");
  tcase_add_test(t, test_repeats_known);
  tcase_add_test(t, test_repeats_none_and_all);
  tcase_add_test(t, test_repeats_short_inputs);
  tcase_add_loop_test(t, test_repeats_random, 0, sizeof SIZES / sizeof *SIZES);
  suite_add_tcase(s, t);
  return s;
}
