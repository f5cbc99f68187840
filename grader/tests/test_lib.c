/* test_lib.c: the shared C modules: prng, stats, scan_cpu, result, cli. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prng.h"
#include "result.h"
#include "scan_cpu.h"
#include "stats.h"
#include "tests.h"

/* ---------------------------------------------------------------- prng */

START_TEST(test_prng_known_values) {
  /* SplitMix64 from seed 0: the published first outputs pin the algorithm, so a
   * change that would give students different inputs on another machine fails. */
  prng g;
  prng_seed(&g, 0);
  ck_assert_uint_eq(prng_next(&g), 0xe220a8397b1dcdafULL);
  ck_assert_uint_eq(prng_next(&g), 0x6e789e6aa1b965f4ULL);
  ck_assert_uint_eq(prng_next(&g), 0x06c45d188009454fULL);
}
END_TEST

START_TEST(test_prng_below_bounds) {
  prng g;
  prng_seed(&g, 42);
  int seen[7] = {0};
  for (int i = 0; i < 70000; i++) {
    uint32_t v = prng_below(&g, 7);
    ck_assert_uint_lt(v, 7);
    seen[v]++;
  }
  for (int i = 0; i < 7; i++) ck_assert_msg(seen[i] > 9000 && seen[i] < 11000, "value %d seen %d times of 70000", i, seen[i]);
}
END_TEST

START_TEST(test_prng_fill_range_and_repeat) {
  int32_t a[1000], b[1000];
  prng_fill_i32(7, a, 1000, -5, 5);
  prng_fill_i32(7, b, 1000, -5, 5);
  ck_assert_mem_eq(a, b, sizeof a);
  int lo = 0, hi = 0;
  for (int i = 0; i < 1000; i++) {
    ck_assert_int_ge(a[i], -5);
    ck_assert_int_le(a[i], 5);
    lo |= a[i] == -5;
    hi |= a[i] == 5;
  }
  ck_assert(lo && hi);
  prng_fill_i32(8, b, 1000, -5, 5);
  ck_assert(memcmp(a, b, sizeof a) != 0);
}
END_TEST

START_TEST(test_prng_full_range) {
  int32_t a[64];
  prng_fill_i32(3, a, 64, INT32_MIN, INT32_MAX);
  int neg = 0;
  for (int i = 0; i < 64; i++) neg += a[i] < 0;
  ck_assert(neg > 10 && neg < 54);
}
END_TEST

/* ---------------------------------------------------------------- stats */

START_TEST(test_stats_median_odd_even) {
  double odd[] = {5, 1, 3};
  ck_assert_double_eq(stats_median(odd, 3), 3);
  double even[] = {4, 1, 3, 2};
  ck_assert_double_eq(stats_median(even, 4), 2.5);
  double one[] = {7};
  ck_assert_double_eq(stats_median(one, 1), 7);
  ck_assert(isnan(stats_median(one, 0)));
}
END_TEST

START_TEST(test_stats_min_and_time_ok) {
  double v[] = {3, 0.5, 2};
  ck_assert_double_eq(stats_min(v, 3), 0.5);
  ck_assert(isnan(stats_min(v, 0)));
  ck_assert(stats_time_ok(0.001));
  ck_assert(!stats_time_ok(0));
  ck_assert(!stats_time_ok(-1));
  ck_assert(!stats_time_ok(NAN));
  ck_assert(!stats_time_ok(INFINITY));
}
END_TEST

/* ---------------------------------------------------------------- scan_cpu */

START_TEST(test_scan_inclusive_exclusive) {
  int32_t in[] = {3, 1, 7, 0, 4, 1, 6, 3}, out[8];
  int32_t inc[] = {3, 4, 11, 11, 15, 16, 22, 25}, exc[] = {0, 3, 4, 11, 11, 15, 16, 22};
  scan_cpu_i32(in, out, 8, 0, SCAN_INCLUSIVE);
  ck_assert_mem_eq(out, inc, sizeof inc);
  scan_cpu_i32(in, out, 8, 0, SCAN_EXCLUSIVE);
  ck_assert_mem_eq(out, exc, sizeof exc);
}
END_TEST

START_TEST(test_scan_segmented) {
  int32_t in[] = {1, 2, 3, 4, 5, 6, 7}, out[7];
  int32_t inc[] = {1, 3, 6, 4, 9, 15, 7}, exc[] = {0, 1, 3, 0, 4, 9, 0};
  scan_cpu_i32(in, out, 7, 3, SCAN_INCLUSIVE);
  ck_assert_mem_eq(out, inc, sizeof inc);
  scan_cpu_i32(in, out, 7, 3, SCAN_EXCLUSIVE);
  ck_assert_mem_eq(out, exc, sizeof exc);
}
END_TEST

START_TEST(test_scan_wraps_and_in_place) {
  int32_t a[] = {INT32_MAX, 1, 1};
  scan_cpu_i32(a, a, 3, 0, SCAN_INCLUSIVE); /* in place */
  ck_assert_int_eq(a[0], INT32_MAX);
  ck_assert_int_eq(a[1], INT32_MIN); /* wraps modulo 2^32 */
  ck_assert_int_eq(a[2], INT32_MIN + 1);
  scan_cpu_i32(a, a, 0, 0, SCAN_EXCLUSIVE); /* n = 0 touches nothing */
  ck_assert_int_eq(a[0], INT32_MAX);
}
END_TEST

/* ---------------------------------------------------------------- result lines */

static result_line sample(void) {
  result_line r;
  memset(&r, 0, sizeof r);
  strcpy(r.case_name, "n2^24");
  strcpy(r.variant, "shfl");
  r.n = 16777216;
  r.seed = 99;
  r.ok = 1;
  r.checked = 1;
  r.median_ms = 0.0712;
  r.min_ms = 0.07;
  r.reps = 20;
  r.verified = 20;
  r.first_bad = r.first_x = r.first_y = -1;
  return r;
}

START_TEST(test_result_roundtrip) {
  result_line r = sample(), back;
  char line[RESULT_LINE_MAX], err[160];
  ck_assert_int_gt(result_format(line, sizeof line, &r), 0);
  ck_assert_msg(result_parse(line, &back, err, sizeof err) == 0, "parse failed: %s", err);
  ck_assert_str_eq(back.case_name, "n2^24");
  ck_assert_str_eq(back.variant, "shfl");
  ck_assert_uint_eq(back.n, 16777216);
  ck_assert_uint_eq(back.seed, 99);
  ck_assert_int_eq(back.ok, 1);
  ck_assert_double_eq_tol(back.median_ms, 0.0712, 1e-9);
  ck_assert_int_eq(back.first_bad, -1);
}
END_TEST

/* Lines the grader must refuse, with the reason it must give. */
static const struct {
  const char *line, *why;
} BAD_LINES[] = {
    {"resulting case=a", "does not start"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=nan min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "finite positive"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=inf min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "finite positive"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=-2 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "finite positive"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=0 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "finite positive"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "missing key 'min_ms'"},
    {"result case=a case=b variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "repeated"},
    {"result case=a variant=v n=-1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "bad value for n"},
    {"result case=a variant=v n=1x seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "bad value for n"},
    {"result case=a variant=v n=1 seed=1 ok=2 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "bad value for ok"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=3 first_bad=0 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "ok=1 with 3 mismatches"},
    {"result case=a\"b variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "bad case name"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=2 verified=2 bad_reps=1 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "ok=1 with 0 mismatches in 1 bad reps"},
    {"result case=a variant=v n=1 seed=1 ok=0 checked=1 median_ms=1 min_ms=1 reps=2 verified=1 bad_reps=2 mismatches=4 first_bad=0 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "more than verified"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=2 verified=0 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "no rep was verified"},
    {"result case=a variant=v n=1 seed=1 ok=0 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=1 mismatches=1 first_bad=0 first_x=-1 first_y=-1 max_err=nan masked=0 nonfinite=0 work_bytes=0", "max_err=nan"},
    {"result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0", "missing key 'verified'"},
    {"result junk", "not key=value"},
};

START_TEST(test_result_rejects) {
  result_line r;
  char err[160] = "";
  ck_assert_int_eq(result_parse(BAD_LINES[_i].line, &r, err, sizeof err), -1);
  ck_assert_msg(strstr(err, BAD_LINES[_i].why) != NULL, "line %d: reason '%s' lacks '%s'", _i, err, BAD_LINES[_i].why);
}
END_TEST

START_TEST(test_result_unknown_keys_allowed) {
  result_line r;
  char err[160];
  ck_assert_int_eq(result_parse("result case=a variant=v n=1 seed=1 ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0 future_key=0.5\n",
                                &r, err, sizeof err), 0);
}
END_TEST

/* ---------------------------------------------------------------- runner CLI */

static int parse(const char *args, cli_opts *o, char *err) {
  static char buf[512];
  char *argv[32];
  int argc = 0;
  snprintf(buf, sizeof buf, "runner %s", args);
  for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " ")) argv[argc++] = t;
  argv[argc] = NULL;
  return cli_parse(argc, argv, o, err, 160);
}

START_TEST(test_cli_counts) {
  uint64_t v;
  ck_assert_int_eq(cli_parse_count("1000", 1ULL << 40, &v), 0);
  ck_assert_uint_eq(v, 1000);
  ck_assert_int_eq(cli_parse_count("2^24", 1ULL << 40, &v), 0);
  ck_assert_uint_eq(v, 16777216);
  ck_assert_int_eq(cli_parse_count("2^24+1", 1ULL << 40, &v), 0);
  ck_assert_uint_eq(v, 16777217);
  ck_assert_int_eq(cli_parse_count("2^24-1", 1ULL << 40, &v), 0);
  ck_assert_uint_eq(v, 16777215);
  ck_assert_int_eq(cli_parse_count("0", 10, &v), 0);
  const char *bad[] = {"", "-1", "+5", "1e6", "12abc", " 12", "2^", "2^x", "2^63", "2^4-17", "99999999999999999999", "2^28+", "11"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    ck_assert_msg(cli_parse_count(bad[i], 10, &v) == -1, "'%s' was accepted", bad[i]);
}
END_TEST

START_TEST(test_cli_good) {
  cli_opts o;
  char err[160];
  ck_assert_int_eq(parse("--case n1,n33 --case n2^24 --variant shfl --seed 5 --reps 3 --check --result-fd 3", &o, err), 0);
  ck_assert_int_eq(o.n_cases, 3);
  ck_assert_str_eq(o.cases[2], "n2^24");
  ck_assert_str_eq(o.variant, "shfl");
  ck_assert_uint_eq(o.seed, 5);
  ck_assert_int_eq(o.reps, 3);
  ck_assert_int_eq(o.check, 1);
  ck_assert_int_eq(o.result_fd, 3);
  ck_assert_int_eq(parse("--n 2^28 --seed 1", &o, err), 0);
  ck_assert_uint_eq(o.n, 1ULL << 28);
}
END_TEST

static const struct {
  const char *args, *why;
} BAD_ARGS[] = {
    {"--bogus", "unknown option '--bogus'"},
    {"--case", "--case needs a value"},
    {"--case a,,", "--case"},
    {"--case bad\"name", "bad case name"},
    {"--n ten", "--n: 'ten' is not a count"},
    {"--n 5 --case a", "exclusive"},
    {"--reps 0", "--reps"},
    {"--reps -3", "--reps"},
    {"--seed 5", "--seed needs --n or --case"},
    {"--seed -1 --n 5", "--seed: '-1'"},
    {"--result-fd x", "--result-fd"},
    {"stray", "unexpected argument 'stray'"},
    {"--out", "--out needs a value"},
};

START_TEST(test_cli_rejects) {
  cli_opts o;
  char err[160] = "";
  ck_assert_int_eq(parse(BAD_ARGS[_i].args, &o, err), 2);
  ck_assert_msg(strstr(err, BAD_ARGS[_i].why) != NULL, "'%s': message '%s' lacks '%s'", BAD_ARGS[_i].args, err, BAD_ARGS[_i].why);
  ck_assert_msg(strchr(err, '\n') == NULL, "message is not one line: %s", err);
}
END_TEST

Suite *lib_suite(void) {
  Suite *s = suite_create("lib");
  TCase *t = tcase_create("prng");
  tcase_add_test(t, test_prng_known_values);
  tcase_add_test(t, test_prng_below_bounds);
  tcase_add_test(t, test_prng_fill_range_and_repeat);
  tcase_add_test(t, test_prng_full_range);
  suite_add_tcase(s, t);
  t = tcase_create("stats");
  tcase_add_test(t, test_stats_median_odd_even);
  tcase_add_test(t, test_stats_min_and_time_ok);
  suite_add_tcase(s, t);
  t = tcase_create("scan_cpu");
  tcase_add_test(t, test_scan_inclusive_exclusive);
  tcase_add_test(t, test_scan_segmented);
  tcase_add_test(t, test_scan_wraps_and_in_place);
  suite_add_tcase(s, t);
  t = tcase_create("result");
  tcase_add_test(t, test_result_roundtrip);
  tcase_add_loop_test(t, test_result_rejects, 0, sizeof BAD_LINES / sizeof *BAD_LINES);
  tcase_add_test(t, test_result_unknown_keys_allowed);
  suite_add_tcase(s, t);
  t = tcase_create("cli");
  tcase_add_test(t, test_cli_counts);
  tcase_add_test(t, test_cli_good);
  tcase_add_loop_test(t, test_cli_rejects, 0, sizeof BAD_ARGS / sizeof *BAD_ARGS);
  suite_add_tcase(s, t);
  return s;
}
