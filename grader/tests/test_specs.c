/* test_specs.c: the judge's specs of the scan assignments against the course's
 * one CPU scan.
 *
 * For every case of 01-04 up to 2^21 + 3 elements (the larger ones run the
 * checks on several threads): the inputs of calls 0, 1 and 2 differ (every
 * call a new input), the spec's check accepts the CPU scan of each call's own
 * input (scan_cpu_i32, segmented as the assignment says), and it reports a
 * changed element, exactly once, at its index. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plan.h"
#include "judge.h"
#include "parallel.h"
#include "prng.h"
#include "scan_cpu.h"
#include "tests.h"

extern const judge_spec judge_spec_01, judge_spec_02, judge_spec_03, judge_spec_04;

/* How a spec's variant scans: segment length (0: one segment) and inclusive. */
static void scan_of(const judge_spec *s, const judge_case *c, size_t *seg, int *inclusive) {
  if (s == &judge_spec_01) *seg = 32, *inclusive = 1;
  else if (s == &judge_spec_02) *seg = c->param ? c->param : (c->n < 1024 ? c->n : 1024), *inclusive = c->variant != 1;
  else if (s == &judge_spec_03) *seg = c->param ? c->param : 2048, *inclusive = 0;
  else *seg = 0, *inclusive = 0;
}

static void check_case(const judge_spec *s, const spec_case *k, int variant) {
  judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed + 1000, .param = k->param, .variant = variant};
  char err[256];
  ck_assert_msg(s->open(&c, err, sizeof err) == 0, "%s/%s: open: %s", s->name, k->name, err);
  size_t n = (size_t)k->n, bytes = (n ? n : 1) * 4;
  int32_t *in[3], *want = malloc(bytes);
  size_t seg;
  int inclusive;
  scan_of(s, &c, &seg, &inclusive);
  for (int call = 0; call < 3; call++) {
    in[call] = malloc(bytes);
    void *bufs[JUDGE_MAX_BUFS] = {in[call]};
    s->input(&c, (uint64_t)call, bufs);
    scan_cpu_i32(in[call], want, n, seg, inclusive ? SCAN_INCLUSIVE : SCAN_EXCLUSIVE);
    const void *got[JUDGE_MAX_BUFS] = {want};
    spec_verdict v;
    judge_verdict_init(&v);
    s->check(&c, (uint64_t)call, got, &v);
    ck_assert_msg(v.mismatches == 0, "%s/%s call %d: the CPU scan of the call's own input has %llu mismatches, first at %lld",
                  s->name, k->name, call, (unsigned long long)v.mismatches, (long long)v.first_bad);
    if (n) {
      size_t at = n / 2 + (size_t)call;
      if (at >= n) at = n - 1;
      want[at] ^= 0x10u;
      judge_verdict_init(&v);
      s->check(&c, (uint64_t)call, got, &v);
      ck_assert_msg(v.mismatches == 1 && v.first_bad == (int64_t)at, "%s/%s: a changed element %zu: %llu mismatches, first %lld",
                    s->name, k->name, at, (unsigned long long)v.mismatches, (long long)v.first_bad);
    }
  }
  if (n > 1) {
    ck_assert_msg(memcmp(in[0], in[1], n * 4) && memcmp(in[1], in[2], n * 4), "%s/%s: two calls got the same input", s->name,
                  k->name);
  }
  for (int call = 0; call < 3; call++) free(in[call]);
  free(want);
  if (s->close) s->close(&c);
}

START_TEST(test_specs_scans_check_right) {
  const judge_spec *const specs[] = {&judge_spec_01, &judge_spec_02, &judge_spec_03, &judge_spec_04};
  const judge_spec *s = specs[_i];
  int cases = 0;
  for (int i = 0; i < s->n_cases; i++) {
    const spec_case *k = &s->cases[i];
    if (k->n > (1u << 21) + 3) continue; /* the larger ones differ only in size */
    if (s == &judge_spec_04 && !strncmp(k->name, "rep", 3)) continue; /* find_repeats: test_judge */
    for (int v = 0; v < s->n_variants; v++) {
      if (s == &judge_spec_04 && v == s->n_variants - 1) continue; /* find_repeats */
      if (s == &judge_spec_02 && v == 2) continue; /* the global variant: the same scan as variant 0 */
      check_case(s, k, v);
    }
    cases++;
  }
  ck_assert_msg(cases >= 5, "%s: only %d cases tested", s->name, cases);
}
END_TEST

/* A case's set-up on all host threads equals the one-thread versions: the
 * pool's values (prng_fill_u32) and its prefix sums (scan_cpu_i32), on sizes
 * that one thread takes and sizes split in chunks (the carries between them). */
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

/* --bench at sizes above its case (04: n2^24, 12 samples of 4 calls): a
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

/* 04's bench times find_repeats on the input the grader times it on (a case
 * of the spec), and its GB/s counts what a call moves: n ints read, 4 bytes a
 * repeat and the count written (within 1 % of the repeats the case's first
 * window holds), where a scan moves 8n. */
START_TEST(test_bench_bytes_04) {
  const judge_spec *s = &judge_spec_04;
  int rep = -1;
  for (int v = 0; v < s->n_variants; v++)
    if (!strcmp(s->variants[v].slug, "find_repeats")) rep = v;
  ck_assert_msg(rep >= 0, "04 has no find_repeats variant");
  ck_assert_msg(s->bench_bytes && s->n_bench_cases == 1, "04's bench: no byte count of its own, or not one graded case");
  const spec_case *k = NULL;
  for (int i = 0; i < s->n_cases; i++)
    if (!strcmp(s->cases[i].name, s->bench_cases[0])) k = &s->cases[i];
  ck_assert_msg(k && !strcmp(k->name, "rep2^24"), "04's bench case '%s' is not the graded rep2^24", s->bench_cases[0]);
  judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed, .param = k->param, .variant = rep};
  char err[256];
  ck_assert_msg(s->open(&c, err, sizeof err) == 0, "04/%s: open: %s", k->name, err);
  uint32_t *in = malloc((size_t)k->n * sizeof *in);
  ck_assert(in);
  void *bufs[JUDGE_MAX_BUFS] = {in};
  s->input(&c, 0, bufs);
  size_t repeats = 0;
  for (size_t i = 0; i + 1 < (size_t)k->n; i++) repeats += in[i] == in[i + 1];
  double want = 4.0 * (double)k->n + 4.0 * (double)repeats + 4.0, got = s->bench_bytes(rep, k->n, k->param);
  ck_assert_msg(repeats > k->n / 20 && fabs(got - want) < 0.01 * want, "find_repeats on %s: %.0f bytes, the window moves %.0f",
                k->name, got, want);
  ck_assert_msg(s->bench_bytes(0, k->n, k->param) == 8.0 * (double)k->n, "a scan on %s moves 8n bytes", k->name);
  s->close(&c);
  free(in);
}
END_TEST

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
    for (size_t i = 0; i < n; i++) ck_assert_msg(pa[i] == pb[i], "n=%zu: prefix %zu is %u, want %u", n, i, pb[i], pa[i]);
    free(a), free(b), free(pa), free(pb);
  }
}
END_TEST

Suite *specs_suite(void) {
  Suite *s = suite_create("specs");
  TCase *tc = tcase_create("scans");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_specs_scans_check_right, 0, 4);
  tcase_add_test(tc, test_parallel_setup_matches);
  tcase_add_test(tc, test_bench_plan);
  tcase_add_test(tc, test_bench_bytes_04);
  tcase_add_test(tc, test_image_compare_in_chunks);
  suite_add_tcase(s, tc);
  return s;
}
