/* spec_scan.c: a scan assignment's spec against the course's one CPU scan
 * (spec_scan.h). The larger cases run the spec's checks on several threads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan_cpu.h"
#include "spec_scan.h"
#include "tests.h"

/* Calls 0-2 of variant `variant` of case k, scanned as (segment, inclusive). */
static void check_case(const judge_spec *s, const spec_case *k, int variant, size_t segment, int inclusive) {
  judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed + 1000, .param = k->param, .variant = variant};
  char err[256];
  ck_assert_msg(s->open(&c, err, sizeof err) == 0, "%s/%s: open: %s", s->name, k->name, err);
  size_t n = (size_t)k->n, bytes = (n ? n : 1) * 4;
  int32_t *in[3], *want = malloc(bytes);
  ck_assert(want);
  for (int call = 0; call < 3; call++) {
    in[call] = malloc(bytes);
    ck_assert(in[call]);
    void *bufs[JUDGE_MAX_BUFS] = {in[call]};
    s->input(&c, (uint64_t)call, bufs);
    scan_cpu_i32(in[call], want, n, segment, inclusive ? SCAN_INCLUSIVE : SCAN_EXCLUSIVE);
    const void *got[JUDGE_MAX_BUFS] = {want};
    spec_verdict v;
    judge_verdict_init(&v);
    s->check(&c, (uint64_t)call, got, &v);
    ck_assert_msg(v.mismatches == 0,
                  "%s/%s variant %d call %d: the CPU scan of the call's own input has %llu mismatches, first at %lld",
                  s->name, k->name, variant, call, (unsigned long long)v.mismatches, (long long)v.first_bad);
    if (n) {
      size_t at = n / 2 + (size_t)call;
      if (at >= n) at = n - 1;
      want[at] ^= 0x10u;
      judge_verdict_init(&v);
      s->check(&c, (uint64_t)call, got, &v);
      ck_assert_msg(v.mismatches == 1 && v.first_bad == (int64_t)at,
                    "%s/%s variant %d: a changed element %zu: %llu mismatches, first %lld", s->name, k->name, variant, at,
                    (unsigned long long)v.mismatches, (long long)v.first_bad);
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

void spec_scan_cases(const judge_spec *s, spec_scan_shape shape, int min_cases) {
  int cases = 0;
  for (int i = 0; i < s->n_cases; i++) {
    const spec_case *k = &s->cases[i];
    if (k->n > SPEC_SCAN_MAX_N) continue;
    int checked = 0;
    for (int v = 0; v < s->n_variants; v++) {
      judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed, .param = k->param, .variant = v};
      size_t segment = 0;
      int inclusive = 0;
      if (!shape(&c, &segment, &inclusive)) continue;
      check_case(s, k, v, segment, inclusive);
      checked = 1;
    }
    cases += checked;
  }
  ck_assert_msg(cases >= min_cases, "%s: only %d cases tested, want at least %d", s->name, cases, min_cases);
}
