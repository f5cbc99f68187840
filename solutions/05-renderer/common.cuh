// common.cuh: the device helpers every kernel of the 05 reference renderer
// uses (layer: shared by binning, sort and draw): unfused float arithmetic,
// the geometry of circles against tiles and bands, the wait that orders a
// programmatic dependent launch after the grid before it, and warp and block
// scans.
#pragma once

#include "renderer.h"
#include "policy.cuh"

// ---------------------------------------------------------------- geometry shared by all kernels
// Unfused float operations: every kernel must get the same bits for the same
// circle (rt_count and rt_emit must agree on c_i), and the exactness arguments
// of rt_near and of draw.cuh's band tests need each operation rounded on its own.
static __device__ __forceinline__ float rt_add(float a, float b) { return __fadd_rn(a, b); }
static __device__ __forceinline__ float rt_sub(float a, float b) { return __fsub_rn(a, b); }
static __device__ __forceinline__ float rt_mul(float a, float b) { return __fmul_rn(a, b); }

// Pixel indices [*lo, *hi] of one axis whose centres may lie within r of c,
// one pixel wider on each side than the exact bound (so float rounding cannot
// drop a pixel); 0 when there are none (also for NaN).
static __device__ __forceinline__ int rt_span(float c, float r, int size, int *lo, int *hi) {
  const float fs = (float)size;
  const float a = rt_sub(rt_mul(rt_sub(c, r), fs), 1.5f); // (c - r) size - 0.5, less a pixel
  const float b = rt_add(rt_mul(rt_add(c, r), fs), 0.5f); // (c + r) size - 0.5, plus a pixel
  if (!(b >= 0.0f) || !(a <= fs - 1.0f) || !(a <= b)) return 0;
  *lo = a <= 0.0f ? 0 : (int)a;
  *hi = b >= fs - 1.0f ? size - 1 : (int)b;
  return 1;
}

// The rectangle of RT_TILE tiles that circle (cx, cy, r) may touch.
struct rt_rect {
  int x0, y0, nx, ny;
};
static __device__ __forceinline__ rt_rect rt_tiles(float cx, float cy, float r, int w, int h) {
  rt_rect k = {0, 0, 0, 0};
  int i0, i1, j0, j1;
  if (rt_span(cx, r, w, &i0, &i1) && rt_span(cy, r, h, &j0, &j1)) {
    k.x0 = i0 / RT_TILE, k.nx = i1 / RT_TILE - k.x0 + 1;
    k.y0 = j0 / RT_TILE, k.ny = j1 / RT_TILE - k.y0 + 1;
  }
  return k;
}

// 1 when circle (cx, cy, r) may cover a pixel centre of the rectangle
// [xlo, xhi] x [ylo, yhi] of pixel centres: the squared distance from its
// centre to the nearest point q of the rectangle, computed as render_dist2
// does. For every pixel centre p of the rectangle |p.x - cx| >= |q.x - cx| and
// |p.y - cy| >= |q.y - cy|, and rounding is monotonic, so render_dist2 at p is
// at least this value: a circle that fails the test covers no pixel there.
static __device__ __forceinline__ int rt_near(float cx, float cy, float r, float xlo, float xhi, float ylo,
                                              float yhi) {
  const float ex = rt_sub(cx, fminf(fmaxf(cx, xlo), xhi)), ey = rt_sub(cy, fminf(fmaxf(cy, ylo), yhi));
  return rt_add(rt_mul(ex, ex), rt_mul(ey, ey)) <= rt_mul(r, r);
}

// ---------------------------------------------------------------- programmatic dependent launch
// The list path is nine dependent kernels, and between two plain launches the
// GPU drains the first grid, flushes its writes and only then starts the next
// one's blocks: a few microseconds a launch, about as long as a small kernel
// runs. On compute capability 9.0 and up, render() launches every kernel after
// the first with programmatic stream serialization: the next grid is set up
// while the one before ends, and its blocks wait in rt_after_previous() until
// that grid has finished and its memory is visible. Every kernel calls it
// before it touches global memory, so reads and writes keep the order of plain
// launches; what overlaps is the launch, not the work. It is a no-op on older
// GPUs and after a plain launch (the first kernel of a frame, the small path).
// (Letting a grid start its dependent early, griddepcontrol.launch_dependents,
// was slower on the H100: docs/results/tuning-05-h100.txt.)
static __device__ __forceinline__ void rt_after_previous() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// ---------------------------------------------------------------- warp-wide scan
// Inclusive scan of v over the warp's 32 lanes (all of them call it).
template <typename T> static __device__ __forceinline__ T rt_warp_inclusive(T v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const T u = __shfl_up_sync(RT_FULL, v, o);
    if (lane >= o) v += u;
  }
  return v;
}

// ---------------------------------------------------------------- block-wide scan
// Exclusive scan of v over the block (blockDim.x a multiple of 32, at most
// 1024); *total gets the sum. ws: 33 T of shared memory. Ends with a barrier
// after its last read of ws, so ws may be reused at once.
template <typename T> static __device__ __forceinline__ T rt_block_scan(T v, T *ws, T *total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  const T incl = rt_warp_inclusive(v);
  if (lane == 31) ws[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const T w = lane < nw ? ws[lane] : (T)0;
    const T wi = rt_warp_inclusive(w);
    if (lane < nw) ws[lane] = wi - w; // exclusive, per warp
    if (lane == 31) ws[32] = wi;      // the block's total
  }
  __syncthreads();
  const T excl = ws[warp] + incl - v;
  *total = ws[32];
  __syncthreads();
  return excl;
}
