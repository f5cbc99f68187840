// main.cu: the course-owned harness of assignment 04 (large scans). Do not edit.
//
// Each variant is one entry point of large_scan.h, timed as a whole: every
// launch it makes, and any reset of its workspace, is inside the timed region.
// The workspace is allocated once per case, untimed, and filled with 0xA5
// bytes by the driver (large_scan.h states the contract).
//
//   build/<src>/04-large-scan/harness --list
//   build/<src>/04-large-scan/harness --variant decoupled_lookback --case n2^24 --check
//   build/<src>/04-large-scan/harness --variant find_repeats --case rep2^24 --check
//   build/<src>/04-large-scan/harness --bench      (CUB rows only in the bench build)
//
// The student's file is compiled into this translation unit (the build puts
// starter/ or solutions/ on the include path), so every name this file defines
// starts with hx04_ or HX04_.
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "large_scan.h"

// ---------------------------------------------------------------- variants

// The version table: one row per entry point, read by the variant list, the
// dispatch and the scan table below. FIND_REPEATS has its own signature.
#define HX04_VARIANT_LIST(X)                                                                                           \
  X(DECOUPLED_LOOKBACK, "decoupled_lookback", exclusive_scan,                                                          \
    "graded: exclusive_scan, single pass, 64-bit tile status words, ticketed tiles")                                   \
  X(HIERARCHICAL, "hierarchical", exclusive_scan_hierarchical, "scan tiles, scan the tile sums recursively, add back") \
  X(LOOKBACK_ACQREL, "lookback_acqrel", exclusive_scan_lookback_acqrel,                                                \
    "single pass, separate flag and value ordered by release/acquire")                                                \
  X(REDUCE_THEN_SCAN, "reduce_then_scan", exclusive_scan_reduce_then_scan,                                             \
    "sum the tiles, scan the sums, scan each tile from its sum")                                                       \
  X(FIND_REPEATS, "find_repeats", NULL, "graded: indices i with a[i] == a[i+1], a compaction on the scan")

#define HX04_ENUM(id, slug, fn, summary) HX04_##id,
typedef enum hx04_variant_id { HX04_VARIANT_LIST(HX04_ENUM) HX04_N_VARIANTS } hx04_variant_id;
#undef HX04_ENUM

#define HX04_ROW(id, slug, fn, summary) {slug, summary},
static const hx_variant hx04_variants[] = {HX04_VARIANT_LIST(HX04_ROW)};
#undef HX04_ROW

typedef cudaError_t (*hx04_scan_fn)(const unsigned *, unsigned *, size_t, void *);
#define HX04_FN(id, slug, fn, summary) fn,
static const hx04_scan_fn hx04_scans[] = {HX04_VARIANT_LIST(HX04_FN)};
#undef HX04_FN

// ---------------------------------------------------------------- inputs

// The case's param: which values the input holds.
typedef enum hx04_input {
  HX04_RANDOM = 0,    // uniform over all 2^32 values: the sums wrap about every other element
  HX04_NEAR_2_32 = 1, // in [2^32 - 256, 2^32 - 1]: every addition wraps
  HX04_FEW = 2,       // 16 values near 2^32: about one pair in 16 repeats
  HX04_DISTINCT = 3,  // uniform, then nudged so no two neighbours are equal: no repeats
  HX04_EQUAL = 4,     // one value: every pair repeats
} hx04_input;

static const uint32_t HX04_MAX = 0xffffffffu;

// Host input for a case (at least one element, so n = 0 gets a real buffer),
// or NULL after saying why.
static uint32_t *hx04_make_input(uint64_t seed, size_t n, uint64_t kind) {
  size_t m = n ? n : 1;
  uint32_t *a = NULL;
  switch (kind) {
  case HX04_RANDOM: a = hx_random_uints(seed, m, 0, HX04_MAX); break;
  case HX04_NEAR_2_32: a = hx_random_uints(seed, m, HX04_MAX - 255, HX04_MAX); break;
  case HX04_FEW: a = hx_random_uints(seed, m, HX04_MAX - 15, HX04_MAX); break;
  case HX04_DISTINCT:
    a = hx_random_uints(seed, m, 0, HX04_MAX);
    for (size_t i = 1; i < m; i++)
      if (a[i] == a[i - 1]) a[i]++; // differs from a[i - 1] (wrapping too); a[i + 1] is checked next
    break;
  case HX04_EQUAL:
    a = hx_random_uints(seed, m, HX04_MAX - 1000, HX04_MAX);
    for (size_t i = 1; i < m; i++) a[i] = a[0];
    break;
  default: fprintf(stderr, "04-large-scan: input kind %llu is not one of 0..4\n", (unsigned long long)kind); return NULL;
  }
  return a;
}

// ---------------------------------------------------------------- cases

#define HX04_2_24 ((uint64_t)1 << 24)
static const hx_case hx04_cases[] = {
    // exact correctness over the sizes of the handout (uniform 32-bit values)
    {"n0", 0, 1, 20, HX04_RANDOM},
    {"n1", 1, 2, 20, HX04_RANDOM},
    {"n2", 2, 3, 20, HX04_RANDOM},
    {"n1023", 1023, 4, 20, HX04_RANDOM},
    {"n1024", 1024, 5, 20, HX04_RANDOM},
    {"n1025", 1025, 6, 20, HX04_RANDOM},
    {"n65535", 65535, 7, 20, HX04_RANDOM},
    {"n2^24-1", HX04_2_24 - 1, 8, 20, HX04_RANDOM},
    {"n2^24", HX04_2_24, 9, 50, HX04_RANDOM}, // the bench case and a perf case
    {"n2^24+1", HX04_2_24 + 1, 10, 20, HX04_RANDOM},
    {"n10^7+3", 10000003, 11, 20, HX04_RANDOM},
    {"n2^26", (uint64_t)1 << 26, 12, 20, HX04_RANDOM}, // a perf case
    {"n2^28", (uint64_t)1 << 28, 13, 5, HX04_RANDOM},  // 1 GiB in, 1 GiB out; every rep verified on the CPU
    // every addition wraps
    {"wrap65537", 65537, 14, 20, HX04_NEAR_2_32},
    {"wrap2^24+1", HX04_2_24 + 1, 15, 20, HX04_NEAR_2_32},
    // either side of the starter's limit (large_scan.h): right, then wrong
    {"tiles2", 2 * STARTER_TILE, 16, 20, HX04_RANDOM},
    {"tiles2+1", 2 * STARTER_TILE + 1, 17, 20, HX04_RANDOM},
    // find_repeats (also on n0, n1, n2)
    {"rep-none", 100003, 18, 20, HX04_DISTINCT},
    {"rep-all", 100003, 19, 20, HX04_EQUAL},
    {"rep-few", 1025, 20, 20, HX04_FEW},
    {"rep2^24", HX04_2_24, 21, 50, HX04_FEW}, // the perf case of find_repeats
    {"rep2^24+1", HX04_2_24 + 1, 22, 20, HX04_FEW},
};
#define HX04_N_CASES ((int)(sizeof hx04_cases / sizeof *hx04_cases))

// The bench's rows: the sizes of the handout's table.
static const uint64_t hx04_bench_sizes[] = {(uint64_t)1 << 20, (uint64_t)1 << 22, HX04_2_24, HX04_2_24 + 1,
                                            (uint64_t)1 << 26, (uint64_t)1 << 28};

// ---------------------------------------------------------------- state

typedef struct hx04_state {
  size_t n;
  unsigned *d_in;
  unsigned *d_out;     // scans: n elements
  unsigned *d_indices; // find_repeats: room for n
  unsigned *d_count;
  void *work;
  uint32_t expect_count; // find_repeats: the CPU reference's count
  void *cub_temp;        // bench build only: CUB's temporary storage
  size_t cub_temp_bytes;
} hx04_state;

#ifdef HX_BENCH
#include "baselines.cu" // CUB: compiled into the bench build only, before the student's file
#endif

#include "large_scan.cu"

static size_t hx04_workspace(uint64_t n, uint64_t param) {
  (void)param;
  size_t a = exclusive_scan_workspace((size_t)n), b = find_repeats_workspace((size_t)n);
  return a > b ? a : b; // one size for every variant: the driver does not say which runs
}

static void *hx04_setup(const hx_spec *spec, hx_io *io) {
  size_t n = (size_t)spec->n, room = (n ? n : 1) * sizeof(unsigned);
  uint32_t *in = hx04_make_input(spec->seed, n, spec->param);
  if (!in) return NULL;
  hx04_state *s = (hx04_state *)hx_malloc(sizeof *s);
  memset(s, 0, sizeof *s);
  s->n = n;
  s->work = spec->work;
  s->d_in = (unsigned *)hx_dev_upload(in, room);
  if (spec->variant == HX04_FIND_REPEATS) {
    s->d_indices = (unsigned *)hx_dev_malloc(room);
    s->d_count = (unsigned *)hx_dev_malloc(sizeof(unsigned));
    uint32_t *expect = NULL;
    if (spec->check) {
      expect = (uint32_t *)hx_malloc(room);
      s->expect_count = (uint32_t)hx_find_repeats_cpu(in, n, expect);
    }
    hx_output *o = hx_add_output(io, "indices", HX_UINT32, s->d_indices, expect, s->expect_count);
    o->poison_count = n; // every slot is poisoned: nothing past the count may be needed
    hx_add_output(io, "count", HX_UINT32, s->d_count, spec->check ? &s->expect_count : NULL, 1);
  } else {
    s->d_out = (unsigned *)hx_dev_malloc(room);
    // The input is on the device now: its host copy becomes the expected
    // output, scanned in place (no second host array of 1 GiB at 2^28).
    if (spec->check) hx_scan_cpu((const int32_t *)in, (int32_t *)in, n, 0, 1);
    hx_add_output(io, "out", HX_UINT32, s->d_out, spec->check ? in : NULL, n);
  }
#ifdef HX_BENCH
  hx04_baseline_prepare(s); // untimed: CUB's temporary storage for this n
#endif
  return s;
}

// The timed region: the variant's entry point. Its error, if any, ends the
// run with exit 3 and the CUDA error string.
static void hx04_run(void *p, int variant) {
  hx04_state *s = (hx04_state *)p;
  if (variant == HX04_FIND_REPEATS) HX_CHECK(find_repeats(s->d_in, s->n, s->d_indices, s->d_count, s->work));
  else HX_CHECK(hx04_scans[variant](s->d_in, s->d_out, s->n, s->work));
}

static const hx_assignment hx04_assignment = {
    .name = "04-large-scan",
    .variants = hx04_variants,
    .n_variants = HX04_N_VARIANTS,
    .cases = hx04_cases,
    .n_cases = HX04_N_CASES,
    .max_n = LARGE_SCAN_MAX_N,
    .bench_case = "n2^24",
    .bench_sizes = hx04_bench_sizes,
    .n_bench_sizes = (int)(sizeof hx04_bench_sizes / sizeof *hx04_bench_sizes),
    // bytes_moved: the driver's default, 8n (find_repeats: n read + 4 bytes a repeat)
    .bytes_note = "n ints read + n ints written (find_repeats: n read, 4 bytes per repeat written)",
    .workspace_bytes = hx04_workspace,
    .setup = hx04_setup,
    .run = hx04_run,
#ifdef HX_BENCH
    .baselines = hx04_baselines,
    .n_baselines = HX04_N_BASELINES,
    .run_baseline = hx04_run_baseline,
    .baseline_variants = hx04_baseline_variants,
#endif
};

HX_MAIN(hx04_assignment)
