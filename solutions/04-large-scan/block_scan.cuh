// block_scan.cuh (solution, assignment 04; layer: block scan): scans within a
// block. Warps scan with shuffles; lane 31 of each warp gives its warp's total
// through shared memory, and after one barrier every thread adds the totals of
// the warps before its own. Two shapes of it:
//   - ls_block_exclusive: one value a thread (the one-tile kernels, whose
//     threads own consecutive elements);
//   - ls_warp_offsets: LS_VECS values a thread, one warp scan for each, run
//     side by side (the single-pass kernels' warp-owned tiles, tile_io.cuh).
#ifndef LS_BLOCK_SCAN_CUH
#define LS_BLOCK_SCAN_CUH

#include "policy.cuh"

#define LS_FULL_MASK 0xffffffffu

// The sum of x over the warp, in every lane.
static __device__ __forceinline__ unsigned ls_warp_sum(unsigned x) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) x += __shfl_xor_sync(LS_FULL_MASK, x, d);
  return x;
}

// The sum of the totals of the warps before the calling thread's, once every
// warp's lane 31 has given its own (warp_total) through s_warp: a barrier,
// then LS_WARPS broadcast reads. *total gets the sum of all of them.
static __device__ __forceinline__ unsigned ls_warps_before(unsigned warp_total, unsigned *s_warp, unsigned *total) {
  int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 31) s_warp[warp] = warp_total;
  __syncthreads(); // the warp totals are written before any thread reads them
  unsigned before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < LS_WARPS; w++) {
    unsigned s = s_warp[w];
    before += w < warp ? s : 0;
    all += s;
  }
  *total = all;
  return before;
}

// Exclusive scan of one value per thread over the block; *total gets the sum
// of all LS_THREADS. Five shuffle steps in each warp, then ls_warps_before.
static __device__ __forceinline__ unsigned ls_block_exclusive(unsigned x, unsigned *s_warp, unsigned *total) {
  int lane = threadIdx.x & 31;
  unsigned inc = x;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    unsigned y = __shfl_up_sync(LS_FULL_MASK, inc, d);
    if (lane >= d) inc += y;
  }
  return ls_warps_before(inc, s_warp, total) + inc - x;
}

// Each vector's count (cnt[j]: its sum, or its repeats) to its offset in the
// warp-owned tile: LS_VECS warp scans side by side, then the warps' totals (a
// barrier). *total gets the tile's count.
static __device__ __forceinline__ void ls_warp_offsets(const unsigned cnt[LS_VECS], unsigned *s_warp,
                                                       unsigned off[LS_VECS], unsigned *total) {
  int lane = threadIdx.x & 31;
  unsigned inc[LS_VECS];
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) inc[j] = cnt[j];
#pragma unroll
  for (int d = 1; d < 32; d *= 2)
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) {
      unsigned y = __shfl_up_sync(LS_FULL_MASK, inc[j], d);
      if (lane >= d) inc[j] += y;
    }
  unsigned carry = 0; // the warp's count before vector j
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    off[j] = carry + inc[j] - cnt[j];
    carry += __shfl_sync(LS_FULL_MASK, inc[j], 31);
  }
  unsigned before = ls_warps_before(carry, s_warp, total);
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) off[j] += before;
}

// The exclusive scan of vector a's four elements, starting from `prefix`.
static __device__ __forceinline__ uint4 ls_vector_exclusive(uint4 a, unsigned prefix) {
  uint4 x;
  x.x = prefix;
  x.y = x.x + a.x;
  x.z = x.y + a.y;
  x.w = x.z + a.z;
  return x;
}

// A thread's own consecutive elements v replaced by their exclusive scan,
// starting from `prefix`.
static __device__ __forceinline__ void ls_thread_exclusive(uint4 v[LS_VECS], unsigned prefix) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    uint4 a = v[j];
    v[j] = ls_vector_exclusive(a, prefix);
    prefix = v[j].w + a.w;
  }
}

#endif
