/* spec.c: what assignment 01 runs and what is right (the judge's side, trusted).
 *
 * Each warp of the runner's kernels scans 32 consecutive elements on its own,
 * so the right output is a list of independent 32-element inclusive scans:
 * out[i] = in[g] + ... + in[i], g = i - i % 32 (the last group may be short).
 *
 * Inputs. A case has a pool of n + WINDOW_SLACK ints in [-900, 900] drawn from
 * its seed, and call k scans the window of n values starting at s_k, each plus
 * a constant c_k in [-100, 100]:
 *     in_k[i] = pool[s_k + i] + c_k          (in [-1000, 1000], as before the split)
 * Every call, warm-ups included, sees another input: the window moves (so the
 * groups of 32 fall on other pool values) and c_k is fresh, so an output
 * remembered from an earlier call is wrong.
 *
 * What is right, without an expected array per call: with the pool's prefix
 * sums P[j] = pool[0] + ... + pool[j - 1] (the course's one CPU scan,
 * scan_cpu_i32, once per case), the scan of call k is
 *     out_k[i] = P[s_k + i + 1] - P[s_k + g] + (i - g + 1) c_k    (mod 2^32).
 * So a case costs one pass over the pool, and each call one pass that writes
 * its input and one that checks its output. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge.h"
#include "prng.h"
#include "scan_cpu.h"
#include "variants.h"

/* WINDOW_SLACK is prime and STEP is not a multiple of it: s_k = (s_0 + k STEP)
 * mod WINDOW_SLACK differs for every k below WINDOW_SLACK. */
enum { WINDOW_SLACK = 4099, STEP = 1031 };
/* pool values in [-POOL_MAX, POOL_MAX], constants in [-ADD_MAX, ADD_MAX] */
enum { POOL_MAX = 900, ADD_MAX = 100 };

#define X(id, slug, summary) {slug, summary},
static const spec_variant variants[] = {HX01_VARIANT_LIST(X)};
#undef X

/* name, n, seed, reps, param (unused), batch. The cases up to 2^20 + 3 elements
 * take a few microseconds on a current GPU, a launch latency or two: each of
 * their timed samples is 8 calls back to back. */
#define N_2_24 ((uint64_t)1 << 24)
static const spec_case cases[] = {
    {"n1", 1, 11, 5, 0, 8},
    {"n31", 31, 12, 5, 0, 8},
    {"n32", 32, 13, 5, 0, 8},
    {"n33", 33, 14, 5, 0, 8},
    {"n1000", 1000, 15, 5, 0, 8},
    {"n65537", 65537, 16, 5, 0, 8},
    {"n2^20+3", ((uint64_t)1 << 20) + 3, 17, 5, 0, 8},
    {"n2^24", N_2_24, 18, 50, 0, 1}, /* the bench case and the perf case */
    {"n2^28", (uint64_t)1 << 28, 19, 20, 0, 1},
};

typedef struct state {
  int32_t *pool;   /* n + WINDOW_SLACK values */
  int32_t *prefix; /* P[0..n + WINDOW_SLACK]: P[j] = pool[0] + ... + pool[j - 1] */
  uint64_t s0;
} state;

static int open_case(judge_case *c, char *err, size_t cap) {
  size_t n = (size_t)c->n, len = n + WINDOW_SLACK, room = n ? n : 1;
  state *s = calloc(1, sizeof *s);
  int32_t *pool = malloc(len * sizeof *pool), *prefix = malloc((len + 1) * sizeof *prefix);
  if (!s || !pool || !prefix)
    return snprintf(err, cap, "out of host memory for %zu values", len), free(s), free(pool), free(prefix), -1;
  prng_fill_i32(c->seed, pool, len, -POOL_MAX, POOL_MAX);
  prefix[0] = 0;
  scan_cpu_i32(pool, prefix + 1, len, 0, SCAN_INCLUSIVE);
  s->pool = pool;
  s->prefix = prefix;
  s->s0 = judge_call_seed(c->seed, UINT64_MAX) % WINDOW_SLACK;
  c->n_in = c->n_out = 1;
  c->in[0] = (spec_buf){.name = "in", .type = HX_INT32, .count = n, .device_count = room};
  c->out[0] = (spec_buf){.name = "out", .type = HX_INT32, .count = n, .device_count = room};
  c->state = s;
  return 0;
}

/* Call k's window start and constant. */
static void window(const judge_case *c, uint64_t k, size_t *start, int32_t *add) {
  const state *s = c->state;
  *start = (size_t)((s->s0 + k * STEP) % WINDOW_SLACK);
  *add = (int32_t)((judge_call_seed(c->seed, k) >> 32) % (2 * ADD_MAX + 1)) - ADD_MAX;
}

static void input(judge_case *c, uint64_t k, void *const in[]) {
  const state *s = c->state;
  size_t start;
  int32_t add;
  window(c, k, &start, &add);
  int32_t *dst = in[0];
  const int32_t *src = s->pool + start;
  for (size_t i = 0; i < c->n; i++) dst[i] = src[i] + add;
}

static void check(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v) {
  size_t start;
  int32_t add;
  window(c, k, &start, &add);
  /* unsigned: sums wrap modulo 2^32, as the GPU's do */
  const int32_t *p = ((const state *)c->state)->prefix + start;
  const uint32_t *out = got[0], step = (uint32_t)add;
  for (size_t i = 0; i < c->n; i++) {
    size_t g = i - i % HX01_GROUP;
    uint32_t want = (uint32_t)p[i + 1] - (uint32_t)p[g] + (uint32_t)(i - g + 1) * step;
    if (out[i] != want) judge_verdict_bad(v, &c->out[0], i);
  }
}

static void close_case(judge_case *c) {
  state *s = c->state;
  free(s->pool);
  free(s->prefix);
  free(s);
}

/* Cost: every element is read once and written once (the default napkin math, 8n bytes). */
const judge_spec judge_spec_01 = {
    .name = "01-warp-scan",
    .variants = variants,
    .n_variants = HX01_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = HX01_MAX_N,
    .bench_case = "n2^24",
    .open = open_case,
    .input = input,
    .check = check,
    .close = close_case,
};
