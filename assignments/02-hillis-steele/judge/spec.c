/* spec.c: what assignment 02 runs and what is right (the judge's side, trusted).
 *
 * The input is a batch of segments of L ints each (n = batch * L, 1 <= L <=
 * 1024); every segment is scanned on its own. A case's param is L; an ad-hoc
 * `--n N` run uses L = min(N, 1024), and N must then be a multiple of L
 * (variants.h: hs_segment_length). The exclusive variant's right output is
 * the exclusive scan of each segment, every other variant's the inclusive one.
 *
 * Inputs. A case has a pool of n + SCAN_POOL_SLACK (scan_pool.h) ints in [-900, 900] drawn from
 * its seed, and call k scans the window of n values starting at s_k, each plus
 * a constant c_k in [-100, 100]:
 *     in_k[i] = pool[s_k + i] + c_k          (in [-1000, 1000], as before the split)
 * Every call, warm-ups included, sees another input: the window moves (so the
 * segments hold other pool values) and c_k is fresh, so an output remembered
 * from an earlier call is wrong.
 *
 * What is right, without an expected array per call: with the pool's prefix
 * sums P[j] = pool[0] + ... + pool[j - 1] (the course's one CPU scan,
 * scan_cpu_i32, once per case) and g = i - i % L the first element of i's
 * segment, the scans of call k are
 *     inclusive  out_k[i] = P[s_k + i + 1] - P[s_k + g] + (i - g + 1) c_k
 *     exclusive  out_k[i] = P[s_k + i]     - P[s_k + g] + (i - g) c_k      (mod 2^32).
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
static const spec_variant variants[] = {HS_VARIANT_LIST(X)};
#undef X

/* name, n = batch * L, seed, reps, param = L, calls per timed sample. Each
 * correctness case has about 2^21 elements: thousands of segments, so that
 * several blocks share each SM. That is when the warps of a block drift apart
 * and a race between them shows up in the output; with one block per SM the
 * starter's race often goes unseen. Those cases take a few microseconds, a
 * launch latency or two: each of their timed samples is 8 calls back to back. */
static const spec_case cases[] = {
    {"L1", 1 << 21, 21, 5, 1, 8},
    {"L2", 2 << 20, 22, 5, 2, 8},
    {"L31", 31 << 16, 23, 5, 31, 8},
    {"L32", 32 << 16, 24, 5, 32, 8},
    {"L33", 33 << 16, 25, 5, 33, 8},
    {"L100", 100 * 20000, 26, 5, 100, 8},
    {"L512", 512 << 12, 27, 5, 512, 8},
    {"L1000", 1000 << 11, 28, 5, 1000, 8},
    {"L1023", 1023 << 11, 29, 5, 1023, 8},
    {"L1024", 1024 << 11, 30, 5, 1024, 8},
    /* Small enough for compute-sanitizer (racecheck, synccheck, memcheck); neither
     * is a multiple of 256, so a grid of 256-thread blocks has a partial last block. */
    {"L1000x4", 1000 * 4, 31, 1, 1000, 8},
    {"L33x16", 33 * 16, 33, 1, 33, 8},
    /* The performance case: 2^24 ints in 16384 segments of 1024. */
    {"n2^24-L1024", 1 << 24, 32, 6, 1024, 8},
};

typedef struct state {
  scan_pool p;
  uint64_t L;
} state;

static int open_case(judge_case *c, char *err, size_t cap) {
  uint64_t L = hs_segment_length(c->n, c->param);
  if (L < 1 || L > HS_MAX_SEGMENT)
    return snprintf(err, cap, "segment length %" PRIu64 " is not in [1, %d]", L, HS_MAX_SEGMENT), -1;
  if (c->n % L != 0)
    return snprintf(err, cap, "n = %" PRIu64 " is not a multiple of the segment length %" PRIu64, c->n, L), -1;
  state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(err, cap, "out of host memory"), -1;
  c->state = s;
  if (scan_pool_open_i32(c, &s->p, POOL_MAX, ADD_MAX, err, cap)) return -1;
  s->L = L;
  /* hs_scan_global's second buffer (d_tmp): n ints on the device, poisoned
   * before every call like the output, never handed back nor compared. */
  if (c->variant == HS_GLOBAL)
    c->out[c->n_out++] = (spec_buf){.name = "tmp", .type = ELEM_INT32, .count = 0, .device_count = c->in[0].device_count};
  return 0;
}

static void input(judge_case *c, uint64_t k, void *const in[]) { scan_pool_input(&((state *)c->state)->p, k, in[0]); }

/* inclusive or exclusive scans of the segments of L */
static void check(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v) {
  const state *s = c->state;
  scan_pool_check(&s->p, k, (size_t)s->L, c->variant != HS_EXCLUSIVE, got[0], &c->out[0], v);
}

static void close_case(judge_case *c) {
  state *s = c->state;
  scan_pool_close(&s->p);
  free(s);
}

/* Napkin math: every element is read once and written once (the default, 8n
 * bytes). The global variant moves about ceil(log2 L) times that; --bench shows
 * it as its x_copy. */
const judge_spec judge_spec_02 = {
    .name = "02-hillis-steele",
    .variants = variants,
    .n_variants = HS_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = HS_MAX_N,
    .bench_case = "n2^24-L1024",
    .open = open_case,
    .input = input,
    .check = check,
    .close = close_case,
};
