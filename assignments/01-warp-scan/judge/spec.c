/* spec.c: what assignment 01 runs and what is right (the judge's side, trusted).
 *
 * Each warp of the runner's kernels scans 32 consecutive elements on its own,
 * so the right output is a list of independent 32-element inclusive scans:
 * out[i] = in[g] + ... + in[i], g = i - i % 32 (the last group may be short).
 *
 * Inputs. A case has a pool of n + SCAN_POOL_SLACK (scan_pool.h) ints in [-900, 900] drawn from
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

#include "spec.h"
#include "scan_pool.h"
#include "variants.h"

/* pool values in [-POOL_MAX, POOL_MAX], constants in [-ADD_MAX, ADD_MAX] */
enum { POOL_MAX = 900, ADD_MAX = 100 };

#define X(id, slug, summary) {slug, summary},
static const spec_variant variants[] = {WS_VARIANT_LIST(X)};
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
    {"n2^24", N_2_24, 18, 6, 0, 8}, /* the bench case and the perf case: 8 calls a sample (docs/grading.md, fair timing) */
    {"n2^28", (uint64_t)1 << 28, 19, 3, 0, 1},
};

typedef struct state {
  scan_pool p;
} state;

static int open_case(judge_case *c, char *err, size_t cap) {
  state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(err, cap, "out of host memory"), -1;
  c->state = s;
  if (scan_pool_open_i32(c, &s->p, POOL_MAX, ADD_MAX, err, cap)) return -1;
  return 0;
}

static void input(judge_case *c, uint64_t k, void *const in[]) { scan_pool_input(&((state *)c->state)->p, k, in[0]); }

/* inclusive scans of the groups of 32 */
static void check(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v) {
  scan_pool_check(&((state *)c->state)->p, k, WS_GROUP, 1, got[0], &c->out[0], v);
}

static void close_case(judge_case *c) {
  state *s = c->state;
  scan_pool_close(&s->p);
  free(s);
}

/* Cost: every element is read once and written once (the default napkin math, 8n bytes). */
const judge_spec judge_spec_01 = {
    .name = "01-warp-scan",
    .variants = variants,
    .n_variants = WS_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = WS_MAX_N,
    .bench_case = "n2^24",
    .open = open_case,
    .input = input,
    .check = check,
    .close = close_case,
};
