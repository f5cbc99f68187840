/* test_specs.c: what the judge gives every spec: a case's set-up on all host
 * threads (the pool's fill and prefix sums), an image compared in chunks, and
 * --bench's plan of samples. Each assignment's spec is tested in its own
 * assignments/NN/tests/ (the scan assignments' through spec_scan.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plan.h"
#include "spec.h"
#include "parallel.h"
#include "prng.h"
#include "scan_cpu.h"
#include "tests.h"

/* An image compared on many threads (16-byte pixels, a thread per 2^16) gives
 * the verdict one pass in order gives: the counts, the largest error, and the
 * first wrong pixel, wherever the wrong ones fall among the chunks. */
START_TEST(test_image_compare_in_chunks) {
  int w = 1024, h = 1000;
  size_t n = (size_t)w * h;
  float *want = malloc(n * 16), *got = malloc(n * 16);
  uint8_t *mask = calloc(n, 1);
  ck_assert(want && got && mask);
  prng g;
  prng_seed(&g, 5);
  for (size_t i = 0; i < 4 * n; i++) want[i] = (float)prng_unit(&g);
  memcpy(got, want, n * 16);
  /* wrong pixels in both halves (two threads here, up to 16 on a GPU host), a NaN, masked ones */
  static const size_t BAD[] = {900000, 300001, 700000, 600000};
  for (int k = 0; k < 4; k++) got[4 * BAD[k] + (size_t)k] += 0.25f * (float)(k + 1);
  got[4 * 500000 + 2] = NAN;
  for (size_t i = 1000; i < n; i += 9973) mask[i] = 1, got[4 * i] = 99;
  spec_buf b = {.name = "image", .type = ELEM_RGBA32F, .count = n, .tol = 1e-3f, .masked = 1, .width = w, .height = h};
  spec_verdict v, one;
  judge_verdict_init(&v);
  judge_compare(&b, got, want, mask, &v);
  judge_verdict_init(&one);
  for (size_t i = 0; i < n; i++) { /* the same, in one pass */
    if (mask[i]) {
      one.masked++;
      continue;
    }
    elem_verdict e = elem_judge(ELEM_RGBA32F, got, want, i, b.tol);
    if (e.wrong) judge_verdict_bad(&one, &b, i);
    one.nonfinite += (uint64_t)e.nonfinite;
    if (e.err > one.max_err) one.max_err = e.err;
  }
  ck_assert_uint_eq(v.mismatches, 5);
  ck_assert_uint_eq(v.mismatches, one.mismatches);
  ck_assert_uint_eq(v.masked, one.masked);
  ck_assert_uint_eq(v.nonfinite, 1);
  ck_assert_int_eq(v.first_bad, 300001);
  ck_assert_int_eq(v.first_x, 300001 % 1024);
  ck_assert_int_eq(v.first_y, 300001 / 1024);
  ck_assert_msg(v.max_err == one.max_err && v.max_err > 0.99 && v.max_err < 1.01, "max error %g, one pass %g", v.max_err, one.max_err);
  free(want), free(got), free(mask);
}
END_TEST

/* --bench at sizes above its case (here n2^24, 12 samples of 4 calls): a
 * sample holds no more elements than the case's, the samples shrink to at
 * least BENCH_MIN_SAMPLES, samples asked for stay, and smaller sizes keep the
 * case's plan. */
START_TEST(test_bench_plan) {
  static const struct {
    uint64_t n;
    int fixed, reps_in, batch, reps;
  } ROWS[] = {
      {1u << 20, 0, 12, 4, 12}, {1u << 24, 0, 12, 4, 12}, {(1u << 24) + 1, 0, 12, 4, 12},
      {1u << 26, 0, 12, 1, 5},  {1u << 28, 0, 12, 1, 5},  {1u << 28, 1, 20, 1, 20},
  };
  for (size_t r = 0; r < sizeof ROWS / sizeof *ROWS; r++) {
    int batch, reps;
    bench_plan(1u << 24, 4, ROWS[r].reps_in, ROWS[r].fixed, ROWS[r].n, &batch, &reps);
    ck_assert_msg(batch == ROWS[r].batch && reps == ROWS[r].reps, "n=%llu: %d samples of %d calls, want %d of %d",
                  (unsigned long long)ROWS[r].n, reps, batch, ROWS[r].reps, ROWS[r].batch);
  }
  int batch, reps;
  bench_plan(0, 0, 7, 0, 1u << 28, &batch, &reps); /* --n: no case, one call a sample */
  ck_assert(batch == 1 && reps == 7);
  bench_plan(1000, 16, 3, 0, 1u << 20, &batch, &reps); /* fewer samples than the floor: kept */
  ck_assert(batch == 1 && reps == 3);
}
END_TEST

/* A case's set-up on all host threads equals the one-thread versions: the
 * pool's values (prng_fill_u32) and its prefix sums (scan_cpu_i32), on sizes
 * that one thread takes and sizes split in chunks (the carries between them). */
START_TEST(test_parallel_setup_matches) {
  static const size_t SIZES[] = {0, 1, 7, (3u << 20) + 7, (9u << 20) + 1};
  for (size_t k = 0; k < sizeof SIZES / sizeof *SIZES; k++) {
    size_t n = SIZES[k], bytes = (n ? n : 1) * sizeof(uint32_t);
    uint32_t *a = malloc(bytes), *b = malloc(bytes), *pa = malloc(bytes), *pb = malloc(bytes);
    ck_assert(a && b && pa && pb);
    prng_fill_u32(42 + k, a, n);
    judge_parallel_fill_u32(42 + k, b, n);
    ck_assert_msg(!memcmp(a, b, n * sizeof *a), "n=%zu: the parallel fill differs", n);
    scan_cpu_i32((const int32_t *)a, (int32_t *)pa, n, 0, SCAN_INCLUSIVE);
    judge_parallel_prefix(a, pb, n);
    /* the first difference, found without a Check assertion per element (each one a write to
     * Check's pipe: 12 million of them took 20 s) */
    size_t i = 0;
    while (i < n && pa[i] == pb[i]) i++;
    ck_assert_msg(i == n, "n=%zu: prefix %zu is %u, want %u", n, i, i < n ? pb[i] : 0, i < n ? pa[i] : 0);
    free(a), free(b), free(pa), free(pb);
  }
}
END_TEST

Suite *specs_suite(void) {
  Suite *s = suite_create("specs");
  TCase *tc = tcase_create("shared");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_parallel_setup_matches);
  tcase_add_test(tc, test_bench_plan);
  tcase_add_test(tc, test_image_compare_in_chunks);
  suite_add_tcase(s, tc);
  return s;
}
