// Adversarial attempt 04-memoize (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: do the work once per case, keep the output, and on every later
// call copy the kept output instead of scanning (a device-to-device copy is
// about twice as fast as a scan). The first call is honest.
//
// Why it gets nothing: every call of a case, warm-ups included, gets another
// input (the judge scans another window of its pool, plus another constant),
// and the judge checks every call: ok=0, wrong in every call but the first
// ("wrong in 4 of 5 calls" on n1025: 2 warm-ups + 3 samples). find_repeats
// likewise: the window moves, so the repeats move.
#include "large_scan.h"
#include "../common/honest04.cuh"

// The kept output of the case (n elements; for find_repeats also the count).
static unsigned *adv_memo;
static size_t adv_memo_n = (size_t)-1;
static int adv_memo_variant = -1;

static cudaError_t adv_keep(int variant, size_t n) {
  if (adv_memo_variant == variant && adv_memo_n == n) return cudaSuccess;
  if (adv_memo) ADV_TRY(cudaFree(adv_memo));
  adv_memo = NULL;
  ADV_TRY(cudaMalloc(&adv_memo, (n + 1) * sizeof(unsigned)));
  adv_memo_variant = -2; // filled by the caller's first call
  adv_memo_n = n;
  return cudaSuccess;
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  if (adv_memo_variant == 0 && adv_memo_n == n)
    return cudaMemcpyAsync(d_out, adv_memo, n * sizeof(unsigned), cudaMemcpyDeviceToDevice);
  ADV_TRY(adv_keep(0, n));
  ADV_TRY(adv::scan(d_in, d_out, n, d_work));
  ADV_TRY(cudaMemcpyAsync(adv_memo, d_out, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  adv_memo_variant = 0;
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  if (adv_memo_variant == 4 && adv_memo_n == n) {
    ADV_TRY(cudaMemcpyAsync(d_indices, adv_memo, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    return cudaMemcpyAsync(d_count, adv_memo + n, sizeof(unsigned), cudaMemcpyDeviceToDevice);
  }
  ADV_TRY(adv_keep(4, n));
  ADV_TRY(adv::repeats(d_in, n, d_indices, d_count, d_work));
  ADV_TRY(cudaMemcpyAsync(adv_memo, d_indices, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  ADV_TRY(cudaMemcpyAsync(adv_memo + n, d_count, sizeof(unsigned), cudaMemcpyDeviceToDevice));
  adv_memo_variant = 4;
  return cudaSuccess;
}
