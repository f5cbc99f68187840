// Adversarial attempt 04-spin-other-context (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: three honest scans a call (its honest part), and a kernel that
// spins 50 ms in a second CUDA context of its own, made with the driver API
// (cuCtxCreate, reached through cudaGetDriverEntryPointByVersion), where no
// wait of the runner's sees it: cudaDeviceSynchronize and the IDLE probe wait
// for the runner's own context only. The GPU time-slices between contexts, so
// the spin slows the reference's samples, which the judge times next.
//
// Why it gains nothing: before the duel, with the student's runner stopped and
// none of its code run yet, the reference takes samples alone; a reference
// whose duel median is slower than that beyond the ceiling noise was disturbed,
// and after a second try the judge ends the run (exit 6, "the reference was
// disturbed"): no points. (Should the driver start a thread for the second
// context, the sandbox kills the runner first: exit 5, no points either.) The
// table's "nogain:2" takes either; a duel that ended with a result would need
// the attempt timed at 2 x the reference or more. On a019dd7's judge the spin
// ran in the reference's turn unseen.
#include <stdint.h>
#include <stdio.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

namespace other {

// The driver API's types and the three calls, as of CUDA 12.0.
typedef int (*ctx_create_fn)(void **ctx, unsigned flags, int device);
typedef int (*ctx_push_fn)(void *ctx);
typedef int (*ctx_pop_fn)(void **ctx);
static ctx_push_fn push;
static ctx_pop_fn pop;
static void *ctx;

static __global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

template <typename F> static int entry(const char *name, F *fn) {
  cudaDriverEntryPointQueryResult q;
  return cudaGetDriverEntryPointByVersion(name, (void **)fn, 12000, cudaEnableDefault, &q) == cudaSuccess &&
         q == cudaDriverEntryPointSuccess;
}

// The second context, once; 0 when it cannot be had (with the reason on stderr).
static int second_context(void) {
  static int tried;
  if (tried) return ctx != NULL;
  tried = 1;
  ctx_create_fn create;
  if (!entry("cuCtxCreate", &create) || !entry("cuCtxPushCurrent", &push) || !entry("cuCtxPopCurrent", &pop)) {
    fprintf(stderr, "adv: the driver's entry points for a second context were not found\n");
    return 0;
  }
  void *prev = NULL;
  int rc = create(&ctx, 0, 0); // current on this thread now
  if (rc != 0) {
    fprintf(stderr, "adv: cuCtxCreate failed with CUresult %d\n", rc);
    return ctx = NULL, 0;
  }
  pop(&prev);
  return 1;
}

// 50 ms of spinning in the second context, launched and left. Without a second
// context the trick did not apply, and the call fails (the runner exits 3), so
// that the row does not pass on honest work alone.
static cudaError_t spin_elsewhere(void) {
  if (!second_context() || push(ctx) != 0) return cudaErrorNotSupported;
  spin_kernel<<<1, 1>>>(50ull * 1000 * 1000);
  cudaError_t e = cudaGetLastError();
  void *back;
  pop(&back);
  return e;
}

} // namespace other

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  for (int r = 0; r < 3; r++) ADV_TRY(adv::scan(d_in, d_out, n, d_work));
  return other::spin_elsewhere();
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}
