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

#define HX04_SLUG(id, slug, summary) slug,
#define HX04_BSLUG(id, slug, summary, variant) slug,
static const char *const hx04_slugs[] = {HX04_VARIANT_LIST(HX04_SLUG)
#ifdef HX_BENCH
                                             HX04_BASELINE_LIST(HX04_BSLUG)
#endif
};

typedef cudaError_t (*hx04_scan_fn)(const unsigned *, unsigned *, size_t, void *);
static const hx04_scan_fn hx04_scans[] = {exclusive_scan, exclusive_scan_hierarchical, exclusive_scan_lookback_acqrel,
                                          exclusive_scan_reduce_then_scan};
static_assert(sizeof hx04_scans / sizeof *hx04_scans == HX04_FIND_REPEATS, "one scan per variant before find_repeats");

#ifdef HX_BENCH
#include "baselines.cu" // CUB: compiled into the bench build only
#endif

static size_t hx04_workspace(int variant, uint64_t n, uint64_t param) {
  (void)param;
#ifdef HX_BENCH
  if (variant >= HX04_N_VARIANTS) return hx04_baseline_workspace(variant - HX04_N_VARIANTS, (size_t)n);
#endif
  return variant == HX04_FIND_REPEATS ? find_repeats_workspace((size_t)n) : exclusive_scan_workspace((size_t)n);
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
static __global__ void hx04_hog(unsigned seed) {
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

static void hx04_stress(void) {
  static cudaStream_t hog;
  static int sms;
  static unsigned calls;
  if (!hog) {
    int least = 0, greatest = 0;
    HX_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    HX_CHECK(cudaStreamCreateWithPriority(&hog, cudaStreamNonBlocking, greatest));
    HX_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  }
  hx04_hog<<<sms, 256, 0, hog>>>(++calls);
  HX_CHECK_LAUNCH();
}

// The timed region: the variant's entry point. Its error, if any, ends the
// run with exit 3 and the CUDA error string.
static void hx04_call(const hx_call *c) {
  const unsigned *in = (const unsigned *)c->in[0];
  if (c->param & HX04_STRESS) hx04_stress();
#ifdef HX_BENCH
  if (c->variant >= HX04_N_VARIANTS) return hx04_run_baseline(c->variant - HX04_N_VARIANTS, c);
#endif
  if (c->variant == HX04_FIND_REPEATS)
    HX_CHECK(find_repeats(in, (size_t)c->n, (unsigned *)c->out[0], (unsigned *)c->out[1], c->work));
  else
    HX_CHECK(hx04_scans[c->variant](in, (unsigned *)c->out[0], (size_t)c->n, c->work));
}

static const hx_runner hx04_runner = {
    .name = "04-large-scan",
    .slugs = hx04_slugs,
    .n_slugs = (int)(sizeof hx04_slugs / sizeof *hx04_slugs),
    .workspace_bytes = hx04_workspace,
    .call = hx04_call,
};

HX_RUNNER_MAIN(hx04_runner)
