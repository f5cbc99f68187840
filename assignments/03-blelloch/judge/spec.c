/* spec.c: what assignment 03 runs and what is right (the judge's side, trusted).
 *
 * The input is cut into segments of L elements (the case's param, at most 2048;
 * an ad-hoc `--n N` run uses L = 2048; the last segment is shorter when n is
 * not a multiple of L), and the right output is the exclusive scan of each
 * segment on its own, for every variant.
 *
 * Inputs. A case has a pool of n + SCAN_POOL_SLACK (scan_pool.h) ints in [-900000, 900000] drawn
 * from its seed, and call k scans the window of n values starting at s_k, each
 * plus a constant c_k in [-100000, 100000]:
 *     in_k[i] = pool[s_k + i] + c_k          (in [-10^6, 10^6], as before the split)
 * Every call, warm-ups included, sees another input: the window moves (so the
 * segments hold other pool values) and c_k is fresh, so an output remembered
 * from an earlier call is wrong.
 *
 * What is right, without an expected array per call: with the pool's prefix
 * sums P[j] = pool[0] + ... + pool[j - 1] (the course's one CPU scan,
 * scan_cpu_i32, once per case) and g = i - i % L the first element of i's
 * segment, the scan of call k is
 *     out_k[i] = P[s_k + i] - P[s_k + g] + (i - g) c_k      (mod 2^32).
 * So a case costs one pass over the pool, and each call one pass that writes
 * its input and one that checks its output. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "spec.h"
#include "scan_pool.h"
#include "variants.h"

/* pool values in [-POOL_MAX, POOL_MAX], constants in [-ADD_MAX, ADD_MAX] */
enum { POOL_MAX = 900000, ADD_MAX = 100000 };

#define X(id, slug, summary) {slug, summary},
static const spec_variant variants[] = {BL_VARIANT_LIST(X)};
#undef X

/* name, n, seed, reps, param = L, calls per timed sample. Sizes that are not
 * multiples of L leave a short last segment. The cases below 2^24 elements take
 * a few microseconds, a launch latency or two: each of their timed samples is
 * 8 calls back to back. */
static const spec_case cases[] = {
    {"L1", 1000, 31, 5, 1, 8},
    {"L2", 2001, 32, 5, 2, 8},
    {"L3", 1501, 33, 5, 3, 8},
    {"L33", 33 * 1000 + 17, 34, 5, 33, 8},
    {"L1000", 1000 * 100 + 999, 35, 5, 1000, 8},
    {"L2047", 2047 * 64 + 1, 36, 5, 2047, 8},
    {"L2048", (1 << 20) + 5, 37, 5, 2048, 8},
    {"small", 5000, 38, 1, 2048, 8},       /* racecheck: three blocks, the last one short */
    {"small-L33", 33 * 3 + 5, 39, 1, 33, 8}, /* racecheck: trees smaller than a tile */
    {"tiles2", 2 * 2048, 41, 1, 2048, 8},    /* ncu: two full tiles, whose bank conflicts the model predicts exactly */
    {"n2^24", 1 << 24, 40, 6, 2048, 8},      /* the timed case */
};

typedef struct state {
  scan_pool p;
  uint64_t L;
} state;

static int open_case(judge_case *c, char *err, size_t cap) {
  if (c->param > BL_TILE) return snprintf(err, cap, "segment length %" PRIu64 " is above %d", c->param, BL_TILE), -1;
  state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(err, cap, "out of host memory"), -1;
  c->state = s;
  if (scan_pool_open_i32(c, &s->p, POOL_MAX, ADD_MAX, err, cap)) return -1;
  s->L = bl_segment_length(c->param);
  return 0;
}

static void input(judge_case *c, uint64_t k, void *const in[]) { scan_pool_input(&((state *)c->state)->p, k, in[0]); }

/* exclusive scans of the segments of L */
static void check(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v) {
  const state *s = c->state;
  scan_pool_check(&s->p, k, (size_t)s->L, 0, got[0], &c->out[0], v);
}

static void close_case(judge_case *c) {
  state *s = c->state;
  scan_pool_close(&s->p);
  free(s);
}

/* Napkin math: every element is read once and written once (the default, 8n bytes). */
const judge_spec judge_spec_03 = {
    .name = "03-blelloch",
    .variants = variants,
    .n_variants = BL_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = BL_MAX_N,
    .bench_case = "n2^24",
    .open = open_case,
    .input = input,
    .check = check,
    .close = close_case,
};
