// Adversarial attempt 04-patch-timer (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: replace the runner's timer. The file defines cudaEventElapsedTime
// itself, so that the runner's events would say 1 us whatever ran, and then
// does the honest work plus 0.5 ms more on the default stream.
//
// Why it gains nothing: the judge times each batch on its own clock (GO to
// DONE) and keeps the larger of that and the runner's word, so a timer that
// lies can only make the runner look slower. The table's verdict is decided by
// the link: the CUDA runtime's own definition is linked too (static cudart).
#include "large_scan.h"
#include "../common/honest04.cuh"

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  (void)start, (void)end;
  *ms = 0.001f;
  return cudaSuccess;
}

static __global__ void adv_spin(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < ns);
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  ADV_TRY(adv::scan(d_in, d_out, n, d_work));
  adv_spin<<<1, 1>>>(500000);
  return cudaGetLastError();
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  ADV_TRY(adv::repeats(d_in, n, d_indices, d_count, d_work));
  adv_spin<<<1, 1>>>(500000);
  return cudaGetLastError();
}
