/* spec.c: what assignment 04 runs and what is right (the judge's side, trusted).
 *
 * Inputs (scan_pool.h). A case has a pool of n + SCAN_POOL_SLACK values drawn from its seed, and
 * call k scans the window of n values starting at s_k, each plus a constant c_k:
 *     in_k[i] = pool[s_k + i] + c_k            (mod 2^32)
 * Every call, warm-ups included, sees another input: the window moves (s_k are
 * all different within a case) and c_k is fresh, so an output remembered from an
 * earlier call is wrong, and so are tile sums a scan left in its workspace.
 *
 * What is right, without building an expected array per call: with the pool's
 * prefix sums P[j] = pool[0] + ... + pool[j - 1], the exclusive scan of call k is
 *     out_k[i] = P[s_k + i] - P[s_k] + i * c_k  (mod 2^32),
 * and its repeats are the pool's repeats inside the window, shifted by s_k (c_k
 * changes no equality). So a case costs one pass over the pool, and each call
 * one pass that writes its input and one that checks its output. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "parallel.h"
#include "prng.h"
#include "scan_pool.h"
#include "variants.h"


#define X(id, slug, summary) {slug, summary},
static const spec_variant variants[] = {LS_VARIANT_LIST(X)};
#undef X
#define X(id, slug, summary, variant) {slug, summary},
static const spec_variant baselines[] = {LS_BASELINE_LIST(X)};
#undef X
#define X(id, slug, summary, variant) variant,
static const int baseline_variants[] = {LS_BASELINE_LIST(X)};
#undef X

/* The case's param: which values the pool holds. */
typedef enum input_kind {
  RANDOM = 0,    /* uniform over all 2^32 values: the sums wrap about every other element */
  NEAR_2_32 = 1, /* in [2^32 - 256, 2^32 - 1]: every addition wraps (no constant added) */
  FEW = 2,       /* 16 values near 2^32: about one pair in 16 repeats */
  DISTINCT = 3,  /* uniform, then nudged so no two neighbours are equal: no repeats */
  EQUAL = 4,     /* one value: every pair repeats */
} input_kind;

#define N_2_24 ((uint64_t)1 << 24)
static const spec_case cases[] = {
    /* exact correctness over the sizes of the handout (uniform 32-bit values) */
    {"n0", 0, 1, 20, RANDOM, 0},
    {"n1", 1, 2, 20, RANDOM, 0},
    {"n2", 2, 3, 20, RANDOM, 0},
    {"n1023", 1023, 4, 20, RANDOM, 0},
    {"n1024", 1024, 5, 20, RANDOM, 0},
    {"n1025", 1025, 6, 20, RANDOM, 0},
    {"n65535", 65535, 7, 20, RANDOM, 0},
    {"n2^24-1", N_2_24 - 1, 8, 20, RANDOM, 0},
    {"n2^24", N_2_24, 9, 6, RANDOM, 8}, /* the bench case and a perf case: 8 calls a sample */
    {"n2^24+1", N_2_24 + 1, 10, 20, RANDOM, 0},
    {"n10^7+3", 10000003, 11, 20, RANDOM, 0},
    {"n2^26", (uint64_t)1 << 26, 12, 6, RANDOM, 2}, /* a perf case: 2 calls a sample */
    {"n2^28", (uint64_t)1 << 28, 13, 3, RANDOM, 0},  /* 1 GiB in, 1 GiB out */
    /* every addition wraps */
    {"wrap65537", 65537, 14, 20, NEAR_2_32, 0},
    {"wrap2^24+1", N_2_24 + 1, 15, 20, NEAR_2_32, 0},
    /* either side of the starter's limit (large_scan.h): right, then wrong */
    {"tiles2", 2 * LS_STARTER_TILE, 16, 20, RANDOM, 0},
    {"tiles2+1", 2 * LS_STARTER_TILE + 1, 17, 20, RANDOM, 0},
    /* the look-back under stress (runner.cu's hog): tiles behind a slow one must add
     * several rows of aggregates; and a size where every persistent block of the
     * reference scans several tiles, for memcheck */
    {"stress2^22+3", ((uint64_t)1 << 22) + 3, 23, 20, RANDOM | LS_STRESS, 0},
    {"n2^23+7", ((uint64_t)1 << 23) + 7, 24, 5, RANDOM, 0},
    /* find_repeats (also on n0, n1, n2) */
    {"rep-none", 100003, 18, 20, DISTINCT, 0},
    {"rep-all", 100003, 19, 20, EQUAL, 0},
    {"rep-few", 1025, 20, 20, FEW, 0},
    {"rep2^24", N_2_24, 21, 6, FEW, 8}, /* the perf case of find_repeats: 8 calls a sample */
    {"rep2^24+1", N_2_24 + 1, 22, 20, FEW, 0},
};

/* The bench's rows: the bench case (uniform values, no repeats to speak of) at
 * the sizes of the handout's table, then find_repeats's graded input as the
 * grader runs it (about one repeat in 16). */
static const uint64_t bench_sizes[] = {(uint64_t)1 << 20, (uint64_t)1 << 22, N_2_24, N_2_24 + 1, (uint64_t)1 << 26,
                                       (uint64_t)1 << 28};
static const char *const bench_cases[] = {"rep2^24"};

typedef struct state {
  scan_pool p;
  uint64_t *repeats; /* find_repeats: the pool's j with pool[j] == pool[j + 1], increasing */
  size_t n_repeats;
} state;

static void fill_pool(uint32_t *p, size_t len, uint64_t seed, input_kind kind) {
  judge_parallel_fill_u32(seed, p, len); /* prng_fill_u32, on all host threads */
  switch (kind) {
  case RANDOM: break;
  case NEAR_2_32: for (size_t i = 0; i < len; i++) p[i] = 0xffffff00u | (p[i] >> 24); break;
  case FEW: for (size_t i = 0; i < len; i++) p[i] = 0xfffffff0u | (p[i] >> 28); break;
  case DISTINCT:
    for (size_t i = 1; i < len; i++)
      if (p[i] == p[i - 1]) p[i]++; /* differs from p[i - 1] (wrapping too); p[i + 1] is checked next */
    break;
  case EQUAL: for (size_t i = 1; i < len; i++) p[i] = p[0]; break;
  }
}

static int open_case(judge_case *c, char *err, size_t cap) {
  uint64_t kind = c->param & LS_KIND_MASK;
  if (kind > EQUAL || (c->param & ~(uint64_t)(LS_KIND_MASK | LS_STRESS)))
    return snprintf(err, cap, "param %" PRIu64 ": the input kind is not one of 0..4", c->param), -1;
  size_t n = (size_t)c->n, room = n ? n : 1;
  state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(err, cap, "out of host memory"), -1;
  c->state = s;
  /* Every addition wraps in NEAR_2_32: no constant may move its values */
  if (scan_pool_open(&s->p, c->seed, n, kind == NEAR_2_32 ? SCAN_POOL_NO_ADD : 0, err, cap)) return -1;
  fill_pool(s->p.pool, s->p.len, c->seed, (input_kind)kind);
  c->n_in = 1;
  c->in[0] = (spec_buf){.name = "in", .type = ELEM_UINT32, .count = n, .device_count = room};
  if (c->variant == LS_FIND_REPEATS) {
    const uint32_t *pool = s->p.pool;
    s->repeats = malloc(s->p.len * sizeof *s->repeats);
    if (!s->repeats) return snprintf(err, cap, "out of host memory"), -1;
    for (size_t j = 0; j + 1 < s->p.len; j++)
      if (pool[j] == pool[j + 1]) s->repeats[s->n_repeats++] = j;
    c->n_out = 2;
    /* every slot is poisoned: nothing past the count may be needed */
    c->out[0] = (spec_buf){.name = "indices", .type = ELEM_UINT32, .count = n, .device_count = room};
    c->out[1] = (spec_buf){.name = "count", .type = ELEM_UINT32, .count = 1};
    return 0;
  }
  c->n_out = 1;
  c->out[0] = (spec_buf){.name = "out", .type = ELEM_UINT32, .count = n, .device_count = room};
  return scan_pool_sum(&s->p, err, cap);
}

static void input(judge_case *c, uint64_t k, void *const in[]) { scan_pool_input(&((state *)c->state)->p, k, in[0]); }

static void check_repeats(const judge_case *c, size_t start, const uint32_t *indices, const uint32_t *count,
                          spec_verdict *v) {
  const state *s = c->state;
  /* The pool's repeats j with start <= j and j + 1 < start + n. */
  size_t lo = 0, hi = s->n_repeats;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->repeats[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  size_t want = 0;
  for (size_t r = lo; r < s->n_repeats && s->repeats[r] + 1 < start + c->n; r++, want++)
    if (indices[want] != (uint32_t)(s->repeats[r] - start)) judge_verdict_bad(v, &c->out[0], want);
  /* The count comes after the indices, as element `want` of the outputs. */
  if (count[0] != (uint32_t)want) {
    v->mismatches++;
    if (v->first_bad < 0 || (uint64_t)v->first_bad > want) v->first_bad = (int64_t)want;
  }
}

static void check(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v) {
  const state *s = c->state;
  if (c->variant != LS_FIND_REPEATS) {
    scan_pool_check(&s->p, k, 0, 0, got[0], &c->out[0], v); /* one exclusive scan */
    return;
  }
  size_t start;
  uint32_t add; /* changes no equality */
  scan_pool_window(&s->p, k, &start, &add);
  check_repeats(c, start, got[0], got[1], v);
}

static void close_case(judge_case *c) {
  state *s = c->state;
  scan_pool_close(&s->p);
  free(s->repeats);
  free(s);
}

/* The repeats a window of n values of this input kind holds, on average
 * (fill_pool: a pair repeats with chance 2^-32, 1/256, 1/16, 0 or 1). */
static double expected_repeats(uint64_t n, uint64_t param) {
  static const double chance[] = {[RANDOM] = 1.0 / 4294967296.0, [NEAR_2_32] = 1.0 / 256.0, [FEW] = 1.0 / 16.0,
                                  [DISTINCT] = 0.0, [EQUAL] = 1.0};
  uint64_t kind = param & LS_KIND_MASK;
  return n && kind <= EQUAL ? chance[kind] * (double)(n - 1) : 0.0;
}

/* The bench's GB/s: what a call moves through DRAM. A scan reads n ints and
 * writes n. find_repeats reads n, writes 4 bytes a repeat and the count; its
 * flags and offsets never leave the chip (the reference keeps them in
 * registers), and the tiles' status words (8 bytes a tile of thousands of
 * elements) are left out. CUB's select shares find_repeats's count. */
static double bench_bytes(int variant, uint64_t n, uint64_t param) {
  if (variant != LS_FIND_REPEATS) return 8.0 * (double)n;
  return 4.0 * (double)n + 4.0 * expected_repeats(n, param) + 4.0;
}

/* What no call can avoid: a scan reads n ints and writes n; find_repeats reads
 * n (its few indices are left out: the floor must stay below every right call). */
static double unavoidable_bytes(int variant, uint64_t n, uint64_t param) {
  (void)param;
  return (variant == LS_FIND_REPEATS ? 4.0 : 8.0) * (double)n;
}

const judge_spec judge_spec_04 = {
    .name = "04-large-scan",
    .variants = variants,
    .n_variants = LS_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = LS_MAX_N,
    .bench_case = "n2^24",
    .bench_sizes = bench_sizes,
    .n_bench_sizes = (int)(sizeof bench_sizes / sizeof *bench_sizes),
    .bench_cases = bench_cases,
    .n_bench_cases = (int)(sizeof bench_cases / sizeof *bench_cases),
    /* bytes_moved: the default, 8n, the copy's bytes */
    .bench_bytes = bench_bytes,
    .bytes_note = "n ints read + n ints written, the copy's too (find_repeats and CUB's select: n read, 4 bytes per "
                  "expected repeat and the count written; x_copy still against the copy of 8n)",
    .unavoidable_bytes = unavoidable_bytes,
    .baselines = baselines,
    .n_baselines = LS_N_BASELINES,
    .baseline_variants = baseline_variants,
    .open = open_case,
    .input = input,
    .check = check,
    .close = close_case,
};
