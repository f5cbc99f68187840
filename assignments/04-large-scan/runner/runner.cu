// runner.cu: the course-owned runner of assignment 04 (large scans). Do not edit.
//
// The untrusted side of grading (grader/runner/runner.h): this file and your
// large_scan.cu, compiled on its own, make build/<src>/04-large-scan/runner.
// It maps one call's buffers onto your entry point; the judge made the input,
// and the judge alone compares what your code wrote. Each call is timed as a
// whole: every launch it makes, and any reset of its workspace. The workspace
// is allocated once per case, untimed, filled with 0xA5 bytes, and kept
// between calls, as a caller of a library scan would keep it (large_scan.h
// states the contract). Every call gets a new input.
//
//   build/<src>/04-large-scan/runner --list      (runs the judge on this runner)
//   build/<src>/04-large-scan/runner --variant decoupled_lookback --case n2^24
//   build/<src>/04-large-scan/runner --bench     (CUB rows only in the bench build)
#include <stdio.h>

#include "large_scan.h"
#include "runner.h"
#include "variants.h"

#define LS_SLUG(id, slug, summary) slug,
#define LS_BSLUG(id, slug, summary, variant) slug,
static const char *const ls_slugs[] = {LS_VARIANT_LIST(LS_SLUG)
#ifdef RUNNER_BENCH
                                             LS_BASELINE_LIST(LS_BSLUG)
#endif
};

typedef cudaError_t (*ls_scan_fn)(const unsigned *, unsigned *, size_t, void *);
static const ls_scan_fn ls_scans[] = {exclusive_scan, exclusive_scan_hierarchical, exclusive_scan_lookback_acqrel,
                                          exclusive_scan_reduce_then_scan};
static_assert(sizeof ls_scans / sizeof *ls_scans == LS_FIND_REPEATS, "one scan per variant before find_repeats");

#ifdef RUNNER_BENCH
#include "baselines.cu" // CUB: compiled into the bench build only
#endif

static size_t ls_workspace(int variant, uint64_t n, uint64_t param) {
  (void)param;
#ifdef RUNNER_BENCH
  if (variant >= LS_N_VARIANTS) return ls_baseline_workspace(variant - LS_N_VARIANTS, (size_t)n);
#endif
  return variant == LS_FIND_REPEATS ? find_repeats_workspace((size_t)n) : exclusive_scan_workspace((size_t)n);
}

// ---------------------------------------------------------------- look-back stress

// The stress cases' hog: one block per SM, launched just before the scan on a
// stream of higher priority, each spinning on arithmetic for a different time
// (5 to 40 microseconds, by block). The scan's blocks run beside it, and those
// that share an SM with a long-lived hog block run slower for a while: their
// tiles publish late, so the tiles after them see whole windows of aggregates
// and must add several rows before they meet an inclusive prefix. A look-back
// that keeps only its last row's sum is then wrong. (Correctness cases only:
// the hog is never beside a timed perf case.)
static __global__ void ls_hog(unsigned seed) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  unsigned h = (blockIdx.x * 2654435761u) ^ seed;
  unsigned long long spin_ns = 5000ull * (1 + (h >> 13) % 8);
  float x = (float)threadIdx.x;
  do {
    for (int i = 0; i < 64; i++) x = x * 1.0001f + 0.25f;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < spin_ns);
  if (x == -1.0f) printf("never\n"); // keeps the arithmetic
}

static void ls_stress(void) {
  static cudaStream_t hog;
  static int sms;
  static unsigned calls;
  if (!hog) {
    int least = 0, greatest = 0;
    RUNNER_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    RUNNER_CHECK(cudaStreamCreateWithPriority(&hog, cudaStreamNonBlocking, greatest));
    RUNNER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  }
  ls_hog<<<sms, 256, 0, hog>>>(++calls);
  RUNNER_CHECK_LAUNCH();
}

// The timed region: the variant's entry point. Its error, if any, ends the
// run with exit 3 and the CUDA error string.
static void ls_call(const runner_call *c) {
  const unsigned *in = (const unsigned *)c->in[0];
  if (c->param & LS_STRESS) ls_stress();
#ifdef RUNNER_BENCH
  if (c->variant >= LS_N_VARIANTS) return ls_run_baseline(c->variant - LS_N_VARIANTS, c);
#endif
  if (c->variant == LS_FIND_REPEATS)
    RUNNER_CHECK(find_repeats(in, (size_t)c->n, (unsigned *)c->out[0], (unsigned *)c->out[1], c->work));
  else
    RUNNER_CHECK(ls_scans[c->variant](in, (unsigned *)c->out[0], (size_t)c->n, c->work));
}

static const runner_assignment ls_runner = {
    .name = "04-large-scan",
    .slugs = ls_slugs,
    .n_slugs = (int)(sizeof ls_slugs / sizeof *ls_slugs),
    .workspace_bytes = ls_workspace,
    .call = ls_call,
};

RUNNER_MAIN(ls_runner)
