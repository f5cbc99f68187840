// binning.cuh: the list path's binning (layer: binning): from the circles to [GPU-tier fault emit-nosync: a copy of solutions/05-renderer/binning.cuh with one barrier removed]
// the circle-ordered sequence of (tile, circle) pairs, in three kernels.
//   1. rt_count  (a thread per circle): the rectangle of 16 x 16 tiles that the
//      circle's bounding box (one pixel wider than the circle) touches, and its
//      size c_i, summed per block of RT_CB circles. Also copies each circle to
//      a 32-byte record (x, y, r | red, green, blue), so that list mode
//      gathers one sector per circle instead of six scattered floats.
//   2. rt_scan_counts (one block): exclusive scan of the block sums, i.e. where
//      each circle block's (tile, circle) pairs start in the circle-ordered
//      pair sequence; the number of pairs P; for every block of RT_PB pairs,
//      the circle block its first pair comes from.
//   3. rt_emit   (a block per RT_PB pairs, load-balanced over big and small
//      circles alike): pair q belongs to the circle i with o_i <= q < o_i + c_i
//      (binary search in shared memory); writes key = tile, value = i, and
//      marks as holes the pairs whose tile the circle cannot touch (exact
//      test against the tile's pixel centres). Counts the keys' lowest digit.
// sort.cuh then sorts the pairs by tile.
#pragma once

#include <stdint.h>

#include "common.cuh"

// ---------------------------------------------------------------- loading 4 consecutive circles
// Circles i0 .. i0 + 3 (i0 a multiple of 4): x, y, r into v[0..2][k]; past n:
// zeros.
// One 16-byte load per array when the arrays are 16-byte aligned (cudaMalloc's
// are), so a warp reads 512 contiguous bytes of each.
static __device__ __forceinline__ void rt_load4(const render_scene &s, int i0, float v[3][4]) {
  const bool vec = i0 + 3 < s.n && ((((uintptr_t)s.x | (uintptr_t)s.y | (uintptr_t)s.r) & 15) == 0);
  if (vec) {
    const float4 a = __ldg((const float4 *)(s.x + i0)), b = __ldg((const float4 *)(s.y + i0)),
                 c = __ldg((const float4 *)(s.r + i0));
    v[0][0] = a.x, v[0][1] = a.y, v[0][2] = a.z, v[0][3] = a.w;
    v[1][0] = b.x, v[1][1] = b.y, v[1][2] = b.z, v[1][3] = b.w;
    v[2][0] = c.x, v[2][1] = c.y, v[2][2] = c.z, v[2][3] = c.w;
    return;
  }
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const bool in = i0 + k < s.n;
    v[0][k] = in ? __ldg(&s.x[i0 + k]) : 0.0f;
    v[1][k] = in ? __ldg(&s.y[i0 + k]) : 0.0f;
    v[2][k] = in ? __ldg(&s.r[i0 + k]) : 0.0f;
  }
}

// ---------------------------------------------------------------- 1. rt_count
// Thread t of block b: circles i = b RT_CB + j RT_CT + t, j < RT_CPT (loads of
// x, y, r, rgb: 24 bytes a circle, coalesced). Their records are assembled in
// shared memory and written out as whole lines (32 bytes a circle). c_i = the
// size of the circle's tile rectangle; the block's sum goes to bsum[b]
// (saturated at cap + 1: more than the capacity is all the scan must know).
// Block 0 also writes the pixel-centre bounds of every tile column and row
// (edges: x_lo[tiles_x], x_hi[tiles_x], y_lo[tiles_y], y_hi[tiles_y]).
// Cost: 56 bytes a circle, ~50 instructions a circle.
static __global__ void __launch_bounds__(RT_CT) rt_count(render_scene s, int w, int h, int tiles_x, int tiles_y,
                                                         int cap, float4 *rec, int *bsum, float *edges) {
  rt_after_previous();
  __shared__ float4 srec[2 * RT_CB];
  __shared__ long long ws[33];
  const int t = threadIdx.x, base = blockIdx.x * RT_CB;
  long long c = 0;
#pragma unroll
  for (int j = 0; j < RT_CPT; j++) {
    const int l = j * RT_CT + t, i = base + l;
    if (i < s.n) {
      const float x = __ldg(&s.x[i]), y = __ldg(&s.y[i]), r = __ldg(&s.r[i]);
      srec[2 * l] = make_float4(x, y, r, 0.0f);
      srec[2 * l + 1] = make_float4(__ldg(&s.rgb[3 * i]), __ldg(&s.rgb[3 * i + 1]), __ldg(&s.rgb[3 * i + 2]), 0.0f);
      const rt_rect k = rt_tiles(x, y, r, w, h);
      c += (long long)k.nx * k.ny;
    }
  }
  long long total;
  rt_block_scan<long long>(c, ws, &total); // its barriers also order the srec stores before the reads below
  const int here = min(RT_CB, s.n - base);
  for (int k = t; k < 2 * here; k += RT_CT) rec[2 * (size_t)base + k] = srec[k];
  if (t == 0) bsum[blockIdx.x] = (int)(total > cap ? (long long)cap + 1 : total);
  if (blockIdx.x == 0) {
    for (int k = t; k < tiles_x; k += RT_CT) {
      edges[k] = render_pixel_centre(k * RT_TILE, w);
      edges[tiles_x + k] = render_pixel_centre(min(k * RT_TILE + RT_TILE, w) - 1, w);
    }
    for (int k = t; k < tiles_y; k += RT_CT) {
      edges[2 * tiles_x + k] = render_pixel_centre(k * RT_TILE, h);
      edges[2 * tiles_x + tiles_y + k] = render_pixel_centre(min(k * RT_TILE + RT_TILE, h) - 1, h);
    }
  }
}

// ---------------------------------------------------------------- 2. rt_scan_counts
// One block of 1024 threads. boff[0 .. nb) holds the block sums; it becomes
// their exclusive scan (64-bit running total, so an overflow is seen), and
// boff[nb] = P. ctrl gets P, the number of pair blocks and the overflow flag.
// Then thread b (striding) marks every pair block whose first pair lies in
// circle block b: estart[e] = b.
// Cost: 8 bytes a circle block (n = 2M: 16 KB); 2 barriers a round of 4096.
static __global__ void __launch_bounds__(1024) rt_scan_counts(int *boff, int nb, int cap, int *ctrl, int *estart) {
  rt_after_previous();
  __shared__ long long ws[33];
  const int t = threadIdx.x;
  long long carry = 0;
  for (int base = 0; base < nb; base += 4 * 1024) {
    int v[4];
    long long mine = 0;
#pragma unroll
    for (int q = 0; q < 4; q++) {
      const int k = base + 4 * t + q;
      v[q] = k < nb ? boff[k] : 0;
      mine += v[q];
    }
    long long round;
    long long run = carry + rt_block_scan<long long>(mine, ws, &round);
#pragma unroll
    for (int q = 0; q < 4; q++) {
      const int k = base + 4 * t + q;
      if (k < nb) boff[k] = (int)(run > cap ? (long long)cap + 1 : run);
      run += v[q];
    }
    carry += round;
  }
  const int ok = carry <= cap;
  const int pairs = ok ? (int)carry : 0;
  if (t == 0) {
    ctrl[RT_PAIRS] = pairs;
    ctrl[RT_NBLOCKS] = (pairs + RT_PB - 1) / RT_PB;
    ctrl[RT_OVERFLOW] = !ok;
    boff[nb] = pairs;
  }
  __syncthreads(); // boff, written by every thread, is read below by others
  if (!ok) return;
  for (int b = t; b < nb; b += 1024) {
    const int lo = boff[b], hi = boff[b + 1];
    for (int e = (lo + RT_PB - 1) / RT_PB; e * RT_PB < hi; e++) estart[e] = b;
  }
}

// ---------------------------------------------------------------- 3. rt_emit
// Pair block e (blocks loop over e = blockIdx.x, + gridDim.x, ...): pairs
// [e RT_PB, (e + 1) RT_PB) of the circle-ordered pair sequence. It walks the
// circle blocks that hold them, from estart[e]: for each, thread t reloads
// circles b RT_CB + RT_CPT t + j (x, y, r: 12 bytes each), recomputes their
// rectangles and c_i (the same bits as rt_count) and a block scan gives each
// its first pair o_i. Then thread t handles pairs q = lo + t, + 256, ...: the
// circle whose [o_i, o_i + c_i) holds q by a binary search (10 steps) in
// shared memory; k = q - o_i is a cell of its rectangle, row-major. Writes
// key = tile and value = circle (| RT_HOLE when rt_near fails), coalesced, and
// counts the keys' digit 0 for the first radix pass.
// Cost: 8 bytes written a pair; 12 bytes read a circle (1 + 4096 / P_b times,
// P_b the pairs of a circle block); ~70 instructions a pair.
static __global__ void __launch_bounds__(RT_CT) rt_emit(render_scene s, int w, int h, int tiles_x, int tiles_y,
                                                        const int *boff, const int *estart, const int *ctrl,
                                                        const float *edges, unsigned *keys, unsigned *vals, int *hist,
                                                        int stride) {
  rt_after_previous();
  __shared__ int so[RT_CB], stx[RT_CB], sty[RT_CB], snx[RT_CB];
  __shared__ float sx[RT_CB], sy[RT_CB], sr[RT_CB];
  __shared__ int ws[33];
  __shared__ int digit_count[RT_BUCKETS];
  const int t = threadIdx.x, nblocks = ctrl[RT_NBLOCKS], pairs = ctrl[RT_PAIRS];
  const float *xlo = edges, *xhi = edges + tiles_x, *ylo = edges + 2 * tiles_x, *yhi = ylo + tiles_y;
  for (int e = blockIdx.x; e < nblocks; e += gridDim.x) { // uniform; nblocks = 0 on overflow
    const int e0 = e * RT_PB, e1 = min(e0 + RT_PB, pairs);
    if (t < RT_BUCKETS) digit_count[t] = 0;
    for (int b = estart[e];; b++) {
      const int base = boff[b], end = boff[b + 1];
      // Stage circle block b: thread t holds circles l = RT_CPT t + j of it
      // (rt_load4: coalesced), in circle order.
      int cnt[RT_CPT], mine = 0;
      float v[3][4];
      rt_load4(s, b * RT_CB + RT_CPT * t, v);
#pragma unroll
      for (int j = 0; j < RT_CPT; j++) {
        const int l = RT_CPT * t + j;
        const rt_rect k = b * RT_CB + l < s.n ? rt_tiles(v[0][j], v[1][j], v[2][j], w, h) : rt_rect{0, 0, 0, 0};
        cnt[j] = k.nx * k.ny;
        mine += cnt[j];
        stx[l] = k.x0, sty[l] = k.y0, snx[l] = k.nx;
        sx[l] = v[0][j], sy[l] = v[1][j], sr[l] = v[2][j];
      }
      int total, at = base + rt_block_scan<int>(mine, ws, &total); // its barriers also order the stores above
#pragma unroll
      for (int j = 0; j < RT_CPT; j++) {
        so[RT_CPT * t + j] = at;
        at += cnt[j];
      }
      // FAULT (GPU tier): the barrier between staging so[] and the searches that read
      // other threads' entries of it is gone: a shared-memory race racecheck must report.
      const int lo = max(e0, base), hi = min(e1, end);
#pragma unroll 4
      for (int q = lo + t; q < hi; q += RT_CT) { // unrolled: four independent searches in flight
        int c = 0; // the last circle with o_c <= q: its range holds q (so c_c > 0)
#pragma unroll
        for (int step = RT_CB / 2; step; step >>= 1)
          if (so[c + step] <= q) c += step;
        const int cell = q - so[c], nx = snx[c];
        const int ky = cell / nx, tx = stx[c] + cell - ky * nx, ty = sty[c] + ky;
        const int tile = ty * tiles_x + tx;
        const int hit =
            rt_near(sx[c], sy[c], sr[c], __ldg(&xlo[tx]), __ldg(&xhi[tx]), __ldg(&ylo[ty]), __ldg(&yhi[ty]));
        keys[q] = (unsigned)tile;
        vals[q] = (unsigned)(b * RT_CB + c) | (hit ? 0u : RT_HOLE);
        atomicAdd(&digit_count[tile & (RT_BUCKETS - 1)], 1);
      }
      __syncthreads();      // every search is done before the next circle block is staged
      if (end >= e1) break; // uniform: base and end are the same for every thread
    }
    if (t < RT_BUCKETS) hist[t * stride + e] = digit_count[t];
    __syncthreads(); // read before the next pair block zeroes it
  }
}
