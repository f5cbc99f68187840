/* test_spec04.c: 04's spec. Its scans against the course's one CPU scan
 * (spec_scan.h: one segment, exclusive); find_repeats against the repeats
 * worked out here from each call's input; and the bench's byte count of
 * find_repeats on the input the grader times it on. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec_scan.h"
#include "tests.h"
#include "variants.h"

extern const judge_spec judge_spec_04;

/* Every scan variant is one exclusive scan of the whole input; find_repeats and
 * its cases (rep*) are test_spec04_repeats_check_right's. */
static int large_scan_shape(const judge_case *c, size_t *segment, int *inclusive) {
  if (c->variant == LS_FIND_REPEATS || !strncmp(c->name, "rep", 3)) return 0;
  *segment = 0;
  *inclusive = 0;
  return 1;
}

START_TEST(test_spec04_scans_check_right) { spec_scan_cases(&judge_spec_04, large_scan_shape, 5); }
END_TEST

/* find_repeats's right output on in[0..n), worked out without the spec or the
 * course's compaction: the indices i with in[i] == in[i + 1], increasing, into
 * indices (room for n), and returns their count. */
static uint32_t repeats_of(const uint32_t *in, size_t n, uint32_t *indices) {
  uint32_t count = 0;
  for (size_t i = 0; i + 1 < n; i++)
    if (in[i] == in[i + 1]) indices[count++] = (uint32_t)i;
  return count;
}

/* The spec's verdict on find_repeats's outputs (indices, count) of a call. */
static spec_verdict repeats_verdict(judge_case *c, int call, const uint32_t *indices, const uint32_t *count) {
  const void *got[JUDGE_MAX_BUFS] = {indices, count};
  spec_verdict v;
  judge_verdict_init(&v);
  c->spec->check(c, (uint64_t)call, got, &v);
  return v;
}

#define POISON 0xA5A5A5A5u /* the slots past the count: never compared */

/* Calls 0-2 of find_repeats on case k: the spec accepts the repeats of each
 * call's own input (the slots past the count poisoned), reports a changed index
 * once at its position and a changed count once at the count's position (just
 * after the indices: README, "find_repeats"), and two calls' inputs differ.
 * Returns call 0's count. */
static uint32_t check_repeats_case(const spec_case *k) {
  const judge_spec *s = &judge_spec_04;
  judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed + 1000, .param = k->param, .variant = LS_FIND_REPEATS};
  char err[256];
  ck_assert_msg(s->open(&c, err, sizeof err) == 0, "04/%s: open: %s", k->name, err);
  ck_assert_msg(c.n_out == 2 && c.out[0].count == k->n && c.out[1].count == 1,
                "04/%s: find_repeats's outputs are not (indices: n, count: 1)", k->name);
  size_t n = (size_t)k->n, room = n ? n : 1;
  uint32_t *in[3], *indices = malloc(room * sizeof *indices);
  uint32_t first = 0;
  ck_assert(indices);
  for (int call = 0; call < 3; call++) {
    in[call] = malloc(room * sizeof *in[call]);
    ck_assert(in[call]);
    void *bufs[JUDGE_MAX_BUFS] = {in[call]};
    s->input(&c, (uint64_t)call, bufs);
    for (size_t i = 0; i < room; i++) indices[i] = POISON;
    uint32_t count = repeats_of(in[call], n, indices);
    if (call == 0) first = count;
    spec_verdict v = repeats_verdict(&c, call, indices, &count);
    ck_assert_msg(v.mismatches == 0, "04/%s call %d: the %u repeats of the call's own input have %llu mismatches, first at %lld",
                  k->name, call, count, (unsigned long long)v.mismatches, (long long)v.first_bad);
    if (count) {
      uint32_t at = count / 2 + (uint32_t)call;
      if (at >= count) at = count - 1;
      indices[at] ^= 0x10u;
      v = repeats_verdict(&c, call, indices, &count);
      ck_assert_msg(v.mismatches == 1 && v.first_bad == (int64_t)at, "04/%s call %d: index %u changed: %llu mismatches, first %lld",
                    k->name, call, at, (unsigned long long)v.mismatches, (long long)v.first_bad);
      indices[at] ^= 0x10u;
    }
    uint32_t wrong = count + 1;
    v = repeats_verdict(&c, call, indices, &wrong);
    ck_assert_msg(v.mismatches == 1 && v.first_bad == (int64_t)count,
                  "04/%s call %d: the count %u given as %u: %llu mismatches, first %lld (want 1, at %u)", k->name, call,
                  count, wrong, (unsigned long long)v.mismatches, (long long)v.first_bad, count);
  }
  if (n > 1) {
    ck_assert_msg(memcmp(in[0], in[1], n * 4) && memcmp(in[1], in[2], n * 4), "04/%s: two calls got the same input", k->name);
  }
  for (int call = 0; call < 3; call++) free(in[call]);
  free(indices);
  s->close(&c);
  return first;
}

/* find_repeats on its own cases (rep*, up to 2^24 + 1) and on the small scan
 * cases, among them inputs with no repeat, with every pair a repeat and with some. */
START_TEST(test_spec04_repeats_check_right) {
  const judge_spec *s = &judge_spec_04;
  int cases = 0, none = 0, all = 0, some = 0;
  for (int i = 0; i < s->n_cases; i++) {
    const spec_case *k = &s->cases[i];
    if (strncmp(k->name, "rep", 3) && k->n > SPEC_SCAN_MAX_N) continue;
    uint32_t count = check_repeats_case(k);
    cases++;
    if (k->n < 2) continue;
    none += count == 0;
    all += count == k->n - 1;
    some += count > 0 && count < k->n - 1;
  }
  ck_assert_msg(cases >= 5 && none && all && some,
                "04: find_repeats tested on %d cases: %d with no repeat, %d all repeats, %d some (want 5 cases, each kind)",
                cases, none, all, some);
}
END_TEST

/* 04's bench times find_repeats on the input the grader times it on (a case
 * of the spec), and its GB/s counts what a call moves: n ints read, 4 bytes a
 * repeat and the count written (within 1 % of the repeats the case's first
 * window holds), where a scan moves 8n. */
START_TEST(test_spec04_bench_bytes) {
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

Suite *spec04_suite(void) {
  Suite *s = suite_create("spec04");
  TCase *tc = tcase_create("spec");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_spec04_scans_check_right);
  tcase_add_test(tc, test_spec04_repeats_check_right);
  tcase_add_test(tc, test_spec04_bench_bytes);
  suite_add_tcase(s, tc);
  return s;
}
