// honest04.cuh: the honest work that several adversarial attempts of
// assignment 04 do around their trick (assignments/04-large-scan/tests/adversarial/README.md).
// A plain, correct, unhurried reduce-then-scan and a find_repeats built on it;
// nothing here is a trick. Included by the attempt's large_scan.cu (one
// translation unit, as the runner build compiles a student's file), so every
// name is static and lives in namespace adv.
//
//   adv::scan_workspace(n)               bytes for adv::scan
//   adv::scan(in, out, n, work[, stream]) exclusive scan mod 2^32 (in place allowed)
//   adv::repeats_workspace(n)            bytes for adv::repeats
//   adv::repeats(in, n, idx, count, work[, stream])
//
// ADV_UNGRADED_SCANS() defines the three scan variants the grader does not
// grade (hierarchical, lookback_acqrel, reduce_then_scan) as "not supported".
#ifndef ADV_HONEST04_CUH
#define ADV_HONEST04_CUH

#include <stddef.h>

#include "large_scan.h"

#define ADV_TRY(call)                                                                                                  \
  do {                                                                                                                 \
    cudaError_t adv_err_ = (call);                                                                                     \
    if (adv_err_ != cudaSuccess) return adv_err_;                                                                      \
  } while (0)

#define ADV_UNGRADED_SCANS()                                                                                           \
  cudaError_t exclusive_scan_hierarchical(const unsigned *, unsigned *, size_t, void *) {                              \
    return cudaErrorNotSupported;                                                                                      \
  }                                                                                                                    \
  cudaError_t exclusive_scan_lookback_acqrel(const unsigned *, unsigned *, size_t, void *) {                           \
    return cudaErrorNotSupported;                                                                                      \
  }                                                                                                                    \
  cudaError_t exclusive_scan_reduce_then_scan(const unsigned *, unsigned *, size_t, void *) {                          \
    return cudaErrorNotSupported;                                                                                      \
  }

namespace adv {

enum { THREADS = 256, ITEMS = 4, TILE = THREADS * ITEMS, SUM_THREADS = 1024 };

static size_t tiles(size_t n) { return (n + TILE - 1) / TILE; }
static size_t round16(size_t bytes) { return (bytes + 15) / 16 * 16; }

// Exclusive scan of one value a thread over the block (blockDim.x threads, a
// multiple of 32, at most 1024); the block's total in *total.
static __device__ unsigned block_exclusive(unsigned v, unsigned *total) {
  __shared__ unsigned warp_sums[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  unsigned x = v;
  for (int d = 1; d < 32; d *= 2) {
    unsigned y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned s = lane < warps ? warp_sums[lane] : 0u;
    for (int d = 1; d < 32; d *= 2) {
      unsigned y = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += y;
    }
    warp_sums[lane] = s; // inclusive over the warps
  }
  __syncthreads();
  unsigned before = warp == 0 ? 0u : warp_sums[warp - 1];
  *total = warp_sums[warps - 1];
  __syncthreads(); // warp_sums is reused by the next call
  return before + x - v;
}

// sums[t] = the sum of tile t.
static __global__ void tile_sums(const unsigned *in, size_t n, unsigned *sums) {
  size_t base = blockIdx.x * (size_t)TILE + threadIdx.x * (size_t)ITEMS;
  unsigned s = 0;
  for (int j = 0; j < ITEMS; j++)
    if (base + j < n) s += in[base + j];
  unsigned total;
  block_exclusive(s, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// sums[0..m) scanned in place (exclusive) by one block, SUM_THREADS at a time.
static __global__ void scan_sums(unsigned *sums, size_t m) {
  unsigned carry = 0;
  for (size_t base = 0; base < m; base += SUM_THREADS) {
    size_t i = base + threadIdx.x;
    unsigned v = i < m ? sums[i] : 0u, total;
    unsigned x = block_exclusive(v, &total);
    if (i < m) sums[i] = carry + x;
    carry += total;
  }
}

// out = the exclusive scan of in, tile t starting from sums[t].
static __global__ void tile_scan(const unsigned *in, unsigned *out, size_t n, const unsigned *sums) {
  size_t base = blockIdx.x * (size_t)TILE + threadIdx.x * (size_t)ITEMS;
  unsigned v[ITEMS], s = 0;
  for (int j = 0; j < ITEMS; j++) {
    v[j] = base + j < n ? in[base + j] : 0u;
    s += v[j];
  }
  unsigned total, x = block_exclusive(s, &total) + sums[blockIdx.x];
  for (int j = 0; j < ITEMS; j++) {
    if (base + j < n) out[base + j] = x;
    x += v[j];
  }
}

static size_t scan_workspace(size_t n) { return round16((tiles(n) + 1) * sizeof(unsigned)); }

static cudaError_t scan(const unsigned *in, unsigned *out, size_t n, void *work, cudaStream_t st = 0) {
  if (n == 0) return cudaSuccess;
  unsigned *sums = (unsigned *)work;
  size_t t = tiles(n);
  tile_sums<<<(unsigned)t, THREADS, 0, st>>>(in, n, sums);
  ADV_TRY(cudaGetLastError());
  scan_sums<<<1, SUM_THREADS, 0, st>>>(sums, t);
  ADV_TRY(cudaGetLastError());
  tile_scan<<<(unsigned)t, THREADS, 0, st>>>(in, out, n, sums);
  return cudaGetLastError();
}

// ---------------------------------------------------------------- find_repeats

static __global__ void repeat_flags(const unsigned *in, size_t n, unsigned *flags) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) flags[i] = i + 1 < n && in[i] == in[i + 1];
}

static __global__ void repeat_scatter(const unsigned *flags, const unsigned *pos, size_t n, unsigned *idx,
                                      unsigned *count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n && flags[i]) idx[pos[i]] = (unsigned)i;
  if (i == n - 1) *count = pos[i] + flags[i];
}

// flags (n), their scan (n), then the scan's own workspace.
static size_t repeats_workspace(size_t n) { return round16(n * sizeof(unsigned)) * 2 + scan_workspace(n); }

static cudaError_t repeats(const unsigned *in, size_t n, unsigned *idx, unsigned *count, void *work, cudaStream_t st = 0) {
  if (n == 0) return cudaMemsetAsync(count, 0, sizeof *count, st);
  unsigned *flags = (unsigned *)work;
  unsigned *pos = (unsigned *)((char *)work + round16(n * sizeof(unsigned)));
  void *scan_work = (char *)work + 2 * round16(n * sizeof(unsigned));
  unsigned blocks = (unsigned)((n + 255) / 256);
  repeat_flags<<<blocks, 256, 0, st>>>(in, n, flags);
  ADV_TRY(cudaGetLastError());
  ADV_TRY(scan(flags, pos, n, scan_work, st));
  repeat_scatter<<<blocks, 256, 0, st>>>(flags, pos, n, idx, count);
  return cudaGetLastError();
}

} // namespace adv

#endif
