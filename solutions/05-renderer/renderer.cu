// renderer.cu: the circle renderer of assignment 05 (reference solution).
//
// Two paths, chosen by the circle count n in render():
//
// Small scenes (n <= RT_SMALL_N): render_image alone, in "all" mode. One
// block of 256 threads per 32 x 32 tile tests every circle against its tile,
// chunk by chunk, compacts the hits in index order (ballot, popc and a scan of
// the warp counts) into shared memory and blends them. No workspace.
//
// Large scenes: global per-tile lists of circle indices in increasing index,
// built with scans and a stable radix sort, then render_image in "list" mode.
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
//   4. a stable LSD radix sort of the pairs by tile, 6-bit digits (two passes
//      for 4096 tiles), so each tile's pairs stay in circle order. A pass is
//      rt_row_scan (offsets per digit and pair block), rt_scatter (rank within
//      the block by ballots, reorder in shared memory, coalesced writes), and
//      rt_hist (the next digit's counts).
//   5. rt_bounds: where each tile's run starts in the sorted keys.
//   6. render_image in list mode: one block of 64 threads per 16 x 16 tile
//      walks its list in chunks staged through shared memory.
//
// render_image in list mode: warp w owns a band of 16 x 8 pixels (rows 8w ..
// 8w + 7 of the tile), lane l of it the pixels at columns l % 8 and l % 8 + 8,
// rows l / 8 and l / 8 + 4 of the band (so each of the warp's four pixel
// rounds is an 8 x 4 block, and a small circle covers few of them). The thread
// that stages a circle computes, for each band, whether the circle can touch
// it (distance from its centre to the nearest pixel centre of the band) and
// whether it covers all of it (distance to the farthest corner). A warp skips
// the circles that miss its band, and blends those that cover all of it with
// no test per pixel. Both tests are exact, not approximate: they apply the
// float operations of render_dist2 / render_covers to a point at least as
// near (as far) as any pixel centre of the band, and rounding is monotonic,
// so "miss" implies that no pixel is covered and "full" that all are.
//
// Every pixel is blended by one thread, over the circles in increasing index,
// with the course helpers: the image equals the CPU reference's bit for bit
// (snow: up to expf's last bits).
//
// Workspace (list path): two key/value buffers of RT_CAP pairs (16 bytes a
// pair: 128 MiB), a 32-byte record per circle, and small arrays (counts,
// offsets, tile starts): 129 MiB for rand10k, 190 MiB for micro2M. Nothing in
// it is reused across frames: every array is written before it is read in
// each frame. A frame with more than RT_CAP pairs (none in the case table:
// rand100k has 5.1M) builds no lists, and render_image then tests every
// circle on every tile: correct, slow.
#include <stdint.h>

#include "renderer.h"

// ---------------------------------------------------------------- parameters
#define RT_SMALL_N 2048     // at most this many circles: the small path (no lists)
#ifndef RT_SMALL_TW
#define RT_SMALL_TW 32      // small path: tile side in pixels, 32 (256 threads a block) or 16 (64)
#endif
#define RT_SMALL_NT (RT_SMALL_TW * RT_SMALL_TW / 4) // small path: threads a block (4 pixels each)
#define RT_TILE 16          // list path: tile side in pixels (64 threads a block)
#ifndef RT_K
#define RT_K 4              // circles a thread stages per chunk (render_image)
#endif
#ifndef RT_SMALL_K
#define RT_SMALL_K RT_K     // the same, on the small path
#endif
#define RT_KMAX (RT_K > RT_SMALL_K ? RT_K : RT_SMALL_K)
#define RT_CT 256           // threads of rt_count and rt_emit
#define RT_CPT 4            // circles a thread of rt_count takes
#define RT_CB (RT_CT * RT_CPT) // circles per circle block (rt_count, rt_emit)
#define RT_PB 4096          // pairs per pair block (rt_emit, rt_hist, rt_scatter)
#define RT_PT 256           // threads of those blocks
#define RT_IPT (RT_PB / RT_PT) // pairs a thread (16)
#define RT_DIGIT 6          // radix digit bits
#define RT_BUCKETS (1 << RT_DIGIT)
#ifndef RT_CAP
#define RT_CAP (8 << 20)    // most pairs the workspace holds (more: render_image tests every circle)
#endif
#define RT_HOLE 0x80000000u // in a list value: the circle cannot touch this tile
#ifndef RT_CFG_PDL
#define RT_CFG_PDL 1        // list path, compute capability 9.0 and up: dependent launches (0 off; 2 early)
#endif
#ifndef RT_MIN_BLOCKS
#define RT_MIN_BLOCKS 4     // render_image: blocks of 256 threads an SM must fit (64 registers a thread)
#endif

// ctrl[]: what rt_scan_counts found, for the kernels after it.
#define RT_PAIRS 0    // P, the number of pairs (0 on overflow)
#define RT_NBLOCKS 1  // ceil(P / RT_PB)
#define RT_OVERFLOW 2 // 1: P > capacity: no lists are built and render_image tests every circle
#define RT_CTRL_INTS 4

#define RT_FULL 0xffffffffu

// ---------------------------------------------------------------- geometry shared by all kernels
// Unfused float operations: every kernel must get the same bits for the same
// circle (rt_count and rt_emit must agree on c_i), and the exactness arguments
// above need each operation rounded on its own.
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
//
// A grid may also let its dependent start early (griddepcontrol.launch_dependents,
// RT_CFG_PDL 2, a tuning experiment): its blocks then wait on the SMs while the
// grid before still runs. On the H100 that was slower than letting the
// dependent start at the grid's end (the default, RT_CFG_PDL 1): by 2 % on
// rand1M and 5 % on micro2M (docs/results/tuning-05-h100.txt).
static __device__ __forceinline__ void rt_after_previous() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#if RT_CFG_PDL == 2
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
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
      __syncthreads();
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

// ---------------------------------------------------------------- 4a. rt_row_scan
// Block d: the counts of digit d in every pair block, hist[d * stride + e] for
// e < nblocks, become their exclusive scan; rowtot[d] = the row's sum. The
// scatter adds the scan of the 64 row sums (digit-major order = sorted order).
// Cost: 8 bytes a pair block and digit, 64 blocks.
static __global__ void __launch_bounds__(256) rt_row_scan(int *hist, int stride, const int *ctrl, int *rowtot) {
  rt_after_previous();
  __shared__ int ws[33];
  int *row = hist + blockIdx.x * stride;
  const int nb = ctrl[RT_NBLOCKS], t = threadIdx.x;
  int carry = 0;
  for (int base = 0; base < nb; base += 8 * 256) {
    int v[8], mine = 0;
#pragma unroll
    for (int q = 0; q < 8; q++) {
      const int k = base + 8 * t + q;
      v[q] = k < nb ? row[k] : 0;
      mine += v[q];
    }
    int round, run = carry + rt_block_scan<int>(mine, ws, &round);
#pragma unroll
    for (int q = 0; q < 8; q++) {
      const int k = base + 8 * t + q;
      if (k < nb) row[k] = run;
      run += v[q];
    }
    carry += round;
  }
  if (t == 0) rowtot[blockIdx.x] = carry;
}

// ---------------------------------------------------------------- 4b. rt_scatter
// Pair block e (looping as in rt_emit): pairs [e RT_PB, (e + 1) RT_PB). Warp w
// holds the 512 pairs from e RT_PB + 512 w in 16 rounds of 32 (pair = base +
// 32 j + lane: coalesced loads; (warp, round, lane) is the pairs' order).
// Sweep 1 ranks each pair within its warp and digit: the lanes of a round with
// the same digit find each other with 6 ballots; a lane's rank is the number
// of those below it plus the warp's count of the digit in earlier rounds,
// which the lowest lane then raises. The 8 x 64 counts give every (warp,
// digit) its first slot in the block's pairs sorted by digit; sweep 2 puts
// each pair in its slot in shared memory. Finally consecutive threads copy consecutive
// slots out to digit start (scan of the row sums) + this block's offset in
// the digit (rt_row_scan) + slot - the digit's first slot: runs of equal
// digits become coalesced stores. Stable: equal digits keep their order, so
// each tile's pairs stay in circle order.
// Cost: 8 bytes read and 8 written a pair; ~40 instructions a pair.
static __global__ void __launch_bounds__(RT_PT, 3) rt_scatter(const unsigned *keys, const unsigned *vals,
                                                              unsigned *keys_out, unsigned *vals_out, const int *hist,
                                                              int stride, const int *rowtot, const int *ctrl,
                                                              int shift) {
  rt_after_previous();
  __shared__ unsigned skey[RT_PB], sval[RT_PB]; // the block's pairs, sorted by digit
  __shared__ unsigned short srank[RT_PB];       // a pair's rank within its (warp, digit)
  __shared__ int wc[RT_PT / 32][RT_BUCKETS];    // counts, then first slots, per (warp, digit)
  __shared__ int digit_start[RT_BUCKETS];    // global: where the digit's pairs start
  __shared__ int local_start[RT_BUCKETS];    // in the block: the digit's first slot
  __shared__ int out_base[RT_BUCKETS];       // slot k of digit d goes to out_base[d] + k
  __shared__ int low_total;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int nblocks = ctrl[RT_NBLOCKS], pairs = ctrl[RT_PAIRS];
  if (blockIdx.x >= nblocks) return; // uniform; nblocks = 0 on overflow
  if (warp == 0) { // digit starts: exclusive scan of the 64 row sums, two a lane
    const int a = rowtot[2 * lane], b = rowtot[2 * lane + 1];
    const int incl = rt_warp_inclusive(a + b);
    digit_start[2 * lane] = incl - a - b;
    digit_start[2 * lane + 1] = incl - b;
  }
  const unsigned below = (1u << lane) - 1u;
  for (int e = blockIdx.x; e < nblocks; e += gridDim.x) {
    for (int k = t; k < (RT_PT / 32) * RT_BUCKETS; k += RT_PT) wc[k / RT_BUCKETS][k % RT_BUCKETS] = 0;
    __syncthreads();
    const int first = e * RT_PB + warp * (32 * RT_IPT) + lane;
    unsigned key[RT_IPT], val[RT_IPT];
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int q = first + 32 * j;
      key[j] = q < pairs ? keys[q] : 0u;
      val[j] = q < pairs ? vals[q] : 0u;
    }
    // Sweep 1: each pair's rank among the earlier pairs of its warp with its
    // digit (kept in shared memory, at the pair's place), and the counts per
    // (warp, digit).
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int valid = first + 32 * j < pairs, d = (int)(key[j] >> shift) & (RT_BUCKETS - 1);
      unsigned peers = __ballot_sync(RT_FULL, valid);
#pragma unroll
      for (int bit = 0; bit < RT_DIGIT; bit++) {
        const unsigned set = __ballot_sync(RT_FULL, (d >> bit) & 1);
        peers &= (d >> bit) & 1 ? set : ~set;
      }
      const int before = valid ? wc[warp][d] : 0, r = __popc(peers & below);
      __syncwarp();
      srank[warp * (32 * RT_IPT) + 32 * j + lane] = (unsigned short)(before + r);
      if (valid && r == 0) wc[warp][d] = before + __popc(peers); // the lowest lane of the group
      __syncwarp();
    }
    __syncthreads();
    if (t < RT_BUCKETS) { // digit t: its total; an exclusive scan over the digits (two warps)
      int sum = 0;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) sum += wc[k][t];
      const int incl = rt_warp_inclusive(sum);
      local_start[t] = incl - sum;
      if (t == 31) low_total = incl; // digits 0 .. 31
    }
    __syncthreads();
    if (t < RT_BUCKETS) { // digit t's first slot, each warp's first slot, and the global offset
      int at = local_start[t] + (t >= 32 ? low_total : 0);
      out_base[t] = digit_start[t] + hist[t * stride + e] - at;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) {
        const int c = wc[k][t];
        wc[k][t] = at;
        at += c;
      }
    }
    __syncthreads();
    // Sweep 2: each pair to its slot in shared memory.
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      if (first + 32 * j >= pairs) continue;
      const int slot = wc[warp][(key[j] >> shift) & (RT_BUCKETS - 1)] + srank[warp * (32 * RT_IPT) + 32 * j + lane];
      skey[slot] = key[j], sval[slot] = val[j];
    }
    __syncthreads();
    // Copy out: slot k holds digit d's (k - first slot of d)-th pair of the block.
    const int count = min(RT_PB, pairs - e * RT_PB);
    for (int k = t; k < count; k += RT_PT) {
      const unsigned key_k = skey[k];
      const int pos = out_base[(key_k >> shift) & (RT_BUCKETS - 1)] + k;
      keys_out[pos] = key_k;
      vals_out[pos] = sval[k];
    }
    __syncthreads(); // shared state is read before the next pair block rewrites it
  }
}

// ---------------------------------------------------------------- 4c. rt_hist
// Pair block e (looping as in rt_emit): the counts of digit (key >> shift) & 63
// among its pairs, one shared histogram per warp (few conflicts), summed into
// hist[d * stride + e]. Cost: 4 bytes read a pair.
static __global__ void __launch_bounds__(RT_PT) rt_hist(const unsigned *keys, int *hist, int stride,
                                                        const int *ctrl, int shift) {
  rt_after_previous();
  __shared__ int wc[RT_PT / 32][RT_BUCKETS];
  const int t = threadIdx.x, warp = t >> 5;
  const int nblocks = ctrl[RT_NBLOCKS], pairs = ctrl[RT_PAIRS];
  for (int e = blockIdx.x; e < nblocks; e += gridDim.x) {
    for (int k = t; k < (RT_PT / 32) * RT_BUCKETS; k += RT_PT) wc[k / RT_BUCKETS][k % RT_BUCKETS] = 0;
    __syncthreads();
    unsigned key[RT_IPT];
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int q = e * RT_PB + j * RT_PT + t;
      key[j] = q < pairs ? keys[q] : RT_FULL;
    }
#pragma unroll
    for (int j = 0; j < RT_IPT; j++)
      if (key[j] != RT_FULL) atomicAdd(&wc[warp][(key[j] >> shift) & (RT_BUCKETS - 1)], 1);
    __syncthreads();
    if (t < RT_BUCKETS) {
      int sum = 0;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) sum += wc[k][t];
      hist[t * stride + e] = sum;
    }
    __syncthreads(); // read before the next pair block zeroes it
  }
}

// ---------------------------------------------------------------- 5. rt_bounds
// Thread q (striding over 0 .. P, four positions in flight): start[u] = q for
// every tile u with key[q - 1] < u <= key[q] (key[-1] = -1, key[P] = tiles):
// start[u] is the first pair of tile u, whose list is [start[u], start[u + 1]).
// Cost: 4 bytes read a pair, 4 bytes written a tile.
static __global__ void __launch_bounds__(256) rt_bounds(const unsigned *keys, const int *ctrl, int tiles, int *start) {
  rt_after_previous();
  const int pairs = ctrl[RT_PAIRS], all = gridDim.x * blockDim.x;
  for (int q0 = blockIdx.x * blockDim.x + threadIdx.x; q0 <= pairs; q0 += 4 * all) {
    int lo[4], hi[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
      const int q = q0 + m * all;
      hi[m] = q < pairs ? (int)keys[q] : tiles;
      lo[m] = q > 0 && q <= pairs ? (int)keys[q - 1] : -1;
    }
#pragma unroll
    for (int m = 0; m < 4; m++) {
      const int q = q0 + m * all;
      if (q > pairs) break;
      for (int u = lo[m] + 1; u <= hi[m]; u++) start[u] = q;
    }
  }
}

// ---------------------------------------------------------------- 6. render_image
struct rt_params {
  render_scene s;
  int w, h;
  float4 *image;
  const float4 *rec;    // list mode: the circle records (x, y, r, -), (red, green, blue, -)
  const int *start;     // list mode: tile u's list is list[start[u] .. start[u + 1])
  const unsigned *list; // list mode: circle indices (| RT_HOLE)
  const int *ctrl;      // list mode: RT_OVERFLOW
  int list_mode;        // 0: every circle is tested (all mode)
  int small;            // all mode: 1 the small path (RT_SMALL_TW tiles), 0 after an overflow (RT_TILE)
  int tiles_x;          // tiles a row: of RT_TILE (list mode) or RT_SMALL_TW pixels
};

// Shared state of a block besides the staged circles.
struct rt_block_state {
  int counts[2][RT_KMAX][8];    // all mode: hits per (round j, warp) of a chunk, double-buffered by chunk parity
  float band_lo[2], band_hi[2]; // list mode: pixel-centre rows of each warp's band
  int band_ok[2];               // list mode: the band has a row inside the image
};

// List mode: a circle's flags for the block. Bits 2w and 2w + 1: "may touch
// band w" and "covers every pixel of band w"; 0: touches no band. The tile and
// its bands share the columns [xlo, xhi].
static __device__ __forceinline__ unsigned rt_classify(float cx, float cy, float r, float xlo, float xhi,
                                                       const rt_block_state &bs) {
  const float rr = rt_mul(r, r);
  const float ex = rt_sub(cx, fminf(fmaxf(cx, xlo), xhi)), ex2 = rt_mul(ex, ex);
  // The farthest column: |p.x - cx| <= max(|xlo - cx|, |xhi - cx|) for every pixel centre p.
  const float fx = fmaxf(fabsf(rt_sub(cx, xlo)), fabsf(rt_sub(cx, xhi))), fx2 = rt_mul(fx, fx);
  unsigned f = 0u;
#pragma unroll
  for (int w = 0; w < 2; w++) {
    const float lo = bs.band_lo[w], hi = bs.band_hi[w];
    const float ey = rt_sub(cy, fminf(fmaxf(cy, lo), hi));
    if (!bs.band_ok[w] || !(rt_add(ex2, rt_mul(ey, ey)) <= rr)) continue;
    const float fy = fmaxf(fabsf(rt_sub(cy, lo)), fabsf(rt_sub(cy, hi)));
    const unsigned full = rt_add(fx2, rt_mul(fy, fy)) <= rr;
    f |= (1u | full << 1) << (2 * w);
  }
  return f;
}

// List mode: one block of 64 threads per 16 x 16 tile (see the top). Cost per
// tile: 4 + 32 bytes a list entry (index; record, one sector, gathered); per
// entry and warp ~8 instructions to skip it, ~18 to test the 4 pixels, ~10 a
// blended pixel (~7 when the band is covered whole; snow ~80); 16 bytes a
// pixel written.
template <bool SNOW>
static __device__ __forceinline__ void rt_draw_list(const rt_params &p, rt_block_state &bs, float4 *sgeo,
                                                    float4 *scol) {
  const int t = threadIdx.x, warp = t >> 5, nt = RT_TILE * RT_TILE / 4;
  const int tile = blockIdx.x, x0 = (tile % p.tiles_x) * RT_TILE, y0 = (tile / p.tiles_x) * RT_TILE;
  const int w = p.w, h = p.h;
  const float xlo = render_pixel_centre(x0, w), xhi = render_pixel_centre(min(x0 + RT_TILE, w) - 1, w);
  if (t < 2) { // warp t's band: rows y0 + 8t .. + 7, cut at the image's edge
    const int r0 = y0 + 8 * t, r1 = min(r0 + 8, h) - 1;
    bs.band_ok[t] = r0 < h;
    bs.band_lo[t] = render_pixel_centre(r0, h);
    bs.band_hi[t] = render_pixel_centre(max(r1, r0), h);
  }
  // My pixels: columns x0 + lane % 8 + 8 bx, rows y0 + 8 warp + lane / 8 + 4 by
  // (pixel m = 2 by + bx): in each of its four rounds m a warp covers an 8 x 4
  // block, so a small circle leaves few rounds with a covered pixel.
  const int lane = t & 31, pxi = x0 + (lane & 7), pyi = y0 + 8 * warp + (lane >> 3);
  const float px[2] = {render_pixel_centre(pxi, w), render_pixel_centre(pxi + 8, w)};
  const float py[2] = {render_pixel_centre(pyi, h), render_pixel_centre(pyi + 4, h)};
  float4 pix[4];
#pragma unroll
  for (int m = 0; m < 4; m++) pix[m] = render_background(SNOW, py[m >> 1]);
  const int first = p.start[tile], len = p.start[tile + 1] - first;
  const int shift = 2 * warp;
  for (int chunk = 0; chunk < len; chunk += nt * RT_K) {
    // Stage: entry chunk + j nt + t (list order = circle order) to slot
    // j nt + t, with flags 0 (every warp skips it) for a hole or a circle
    // that touches no band. One 32-byte record a circle.
    int idx[RT_K];
#pragma unroll
    for (int j = 0; j < RT_K; j++) {
      const int c = chunk + j * nt + t;
      const unsigned v = c < len ? __ldg(&p.list[first + c]) : RT_HOLE;
      idx[j] = v & RT_HOLE ? -1 : (int)v;
    }
    float4 geo[RT_K];
#pragma unroll
    for (int j = 0; j < RT_K; j++)
      geo[j] = idx[j] >= 0 ? __ldg(&p.rec[2 * idx[j]]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    // Barrier A: every thread is done blending the previous chunk (and, the
    // first time, the bands are set).
    __syncthreads();
#pragma unroll
    for (int j = 0; j < RT_K; j++) {
      const unsigned f = idx[j] >= 0 ? rt_classify(geo[j].x, geo[j].y, geo[j].z, xlo, xhi, bs) : 0u;
      geo[j].w = __uint_as_float(f);
      sgeo[j * nt + t] = geo[j];
      if (f) scol[j * nt + t] = __ldg(&p.rec[2 * idx[j] + 1]); // the same sector as the geometry
    }
    __syncthreads(); // barrier B: the chunk is staged
    // Blend, in list order; every thread of a warp reads the same entry (a broadcast).
    const int total = min(nt * RT_K, len - chunk);
    for (int k = 0; k < total; k++) {
      const float4 g = sgeo[k];
      const unsigned f = (__float_as_uint(g.w) >> shift) & 3u;
      if (f == 0u) continue; // misses my warp's band
      const float4 c = scol[k];
      if (!SNOW && f == 3u) { // covers all of the band: no test (normal blending does not use d2)
#pragma unroll
        for (int m = 0; m < 4; m++) pix[m] = render_blend(pix[m], 0, 0.0f, g.z, c.x, c.y, c.z);
      } else {
#pragma unroll
        for (int m = 0; m < 4; m++) { // dx * dx and dy * dy are shared by two pixels each
          const float d2 = render_dist2(px[m & 1], py[m >> 1], g.x, g.y);
          if (render_covers(d2, g.z)) pix[m] = render_blend(pix[m], SNOW, d2, g.z, c.x, c.y, c.z);
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < 4; m++) {
    const int x = pxi + 8 * (m & 1), y = pyi + 4 * (m >> 1);
    if (x < w && y < h) p.image[(size_t)y * w + x] = pix[m];
  }
}

// All mode: one block of NT threads (256 for a 32 x 32 tile; 64 for a 16 x 16
// one after an overflow) per tile of side tw = 2 sqrt(NT). Thread t owns the
// 4 pixels of column t % tw at rows t / tw + k NT / tw, k < 4, so a warp
// stores whole row segments. Chunks of RT_K NT circles: each thread tests
// RT_K of them against the tile (circle chunk + j NT + t: coalesced), the
// hits are compacted in index order (ballot and popc in a warp, a scan of the
// (j, warp) counts across warps), staged with their colours, and blended.
// Cost per tile: 12 bytes a circle read (from L2 after the first tiles) and
// ~15 instructions to test it; ~20 a hit and warp to test 4 pixels, ~10 a
// blended pixel; 16 bytes a pixel written.
template <int SNOW_MODE, int NT, int K> // SNOW_MODE 0: normal, 1: snow, 2: p.s.snow (decided at run time)
static __device__ __forceinline__ void rt_draw_all(const rt_params &p, rt_block_state &bs, float4 *sgeo,
                                                   float4 *scol) {
  const render_scene &s = p.s;
  const int SNOW = SNOW_MODE == 2 ? s.snow : SNOW_MODE;
  constexpr int nt = NT, nw = NT / 32, tw = NT == 256 ? 32 : 16, rows = NT / tw;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int tile = blockIdx.x, x0 = (tile % p.tiles_x) * tw, y0 = (tile / p.tiles_x) * tw;
  const int w = p.w, h = p.h;
  const int pxi = x0 + t % tw, pyi = y0 + t / tw;
  const float px = render_pixel_centre(pxi, w);
  float xlo, xhi, ylo, yhi, py[4];
  if (tw == 32) {
    // A warp is one row segment of 32 pixels, so its tile bounds and its four
    // rows are 8 centres it shares: lane k % 8 divides for the k-th, in one
    // division for all 8 (an IEEE division is some 20 instructions, and the
    // small path's tiles are short), and the warp shares them by shuffles.
    const int k = lane & 7, last_x = min(x0 + tw, w) - 1, last_y = min(y0 + tw, h) - 1;
    const int i = k == 0 ? x0 : k == 1 ? last_x : k == 2 ? y0 : k == 3 ? last_y : pyi + (k - 4) * rows;
    const float c = render_pixel_centre(i, k < 2 ? w : h);
    xlo = __shfl_sync(RT_FULL, c, 0), xhi = __shfl_sync(RT_FULL, c, 1);
    ylo = __shfl_sync(RT_FULL, c, 2), yhi = __shfl_sync(RT_FULL, c, 3);
#pragma unroll
    for (int m = 0; m < 4; m++) py[m] = __shfl_sync(RT_FULL, c, 4 + m);
  } else {
    xlo = render_pixel_centre(x0, w), xhi = render_pixel_centre(min(x0 + tw, w) - 1, w);
    ylo = render_pixel_centre(y0, h), yhi = render_pixel_centre(min(y0 + tw, h) - 1, h);
#pragma unroll
    for (int m = 0; m < 4; m++) py[m] = render_pixel_centre(pyi + m * rows, h);
  }
  float4 pix[4];
#pragma unroll
  for (int m = 0; m < 4; m++) pix[m] = render_background(SNOW, py[m]);
  const unsigned below = (1u << lane) - 1u;
  int parity = 0;
  for (int chunk = 0; chunk < s.n; chunk += nt * K, parity ^= 1) {
    unsigned ballot[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
      const int c = chunk + j * nt + t;
      const int hit = c < s.n && rt_near(__ldg(&s.x[c]), __ldg(&s.y[c]), __ldg(&s.r[c]), xlo, xhi, ylo, yhi);
      ballot[j] = __ballot_sync(RT_FULL, hit);
      if (lane == 0) bs.counts[parity][j][warp] = __popc(ballot[j]);
    }
    // Barrier A: the counts are written; every thread is done blending the
    // previous chunk, so the staging area may be overwritten. (The counts
    // are double-buffered: the next chunk writes the other half, and the one
    // after can write this half only once every thread has passed the next A.)
    __syncthreads();
    // Where each of my hits goes: the hits of the (round, warp) pairs before
    // mine, in circle order (round j, then warp, then lane), plus my lane's
    // place in its ballot. With at most 32 pairs (the default chunk) lane e
    // scans pair e's count in one warp scan; with more each thread walks them
    // all.
    int total = 0, slot[K];
    if (K * nw <= 32) { // lane e scans pair e
      const int v = lane < K * nw ? bs.counts[parity][lane / nw][lane % nw] : 0;
      const int incl = rt_warp_inclusive(v);
      total = __shfl_sync(RT_FULL, incl, 31);
#pragma unroll
      for (int j = 0; j < K; j++) slot[j] = __shfl_sync(RT_FULL, incl - v, j * nw + warp) + __popc(ballot[j] & below);
    } else {
#pragma unroll
      for (int j = 0; j < K; j++)
        for (int k = 0; k < nw; k++) {
          if (k == warp) slot[j] = total + __popc(ballot[j] & below); // hits before mine, in circle order
          total += bs.counts[parity][j][k];
        }
    }
#pragma unroll
    for (int j = 0; j < K; j++) {
      if (!(ballot[j] >> lane & 1u)) continue;
      const int i = chunk + j * nt + t; // reloaded (L1) rather than held across the barrier
      sgeo[slot[j]] = make_float4(__ldg(&s.x[i]), __ldg(&s.y[i]), __ldg(&s.r[i]), 0.0f);
      scol[slot[j]] = make_float4(__ldg(&s.rgb[3 * i]), __ldg(&s.rgb[3 * i + 1]), __ldg(&s.rgb[3 * i + 2]), 0.0f);
    }
    __syncthreads(); // barrier B: the chunk's hits are staged
    for (int k = 0; k < total; k++) {
      const float4 g = sgeo[k];
#pragma unroll
      for (int m = 0; m < 4; m++) {
        const float d2 = render_dist2(px, py[m], g.x, g.y);
        if (render_covers(d2, g.z)) {
          const float4 c = scol[k];
          pix[m] = render_blend(pix[m], SNOW, d2, g.z, c.x, c.y, c.z);
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < 4; m++)
    if (pxi < w && pyi + m * rows < h) p.image[(size_t)(pyi + m * rows) * w + pxi] = pix[m];
}

// The kernel that writes the pixels: one block per tile, list mode or all mode
// (the small path, and the list path after an overflow). Dynamic shared
// memory: 2 RT_K blockDim.x float4 (staged circles: centre and radius (and
// flags); colour).
extern "C" __global__ void __launch_bounds__(256, RT_MIN_BLOCKS) render_image(rt_params p) {
  extern __shared__ float4 rt_stage[];
  __shared__ rt_block_state bs;
  float4 *sgeo = rt_stage, *scol = rt_stage + (p.small ? RT_SMALL_K : RT_K) * blockDim.x;
  rt_after_previous(); // the list path's last launch: its lists are complete before any read
  const bool list = p.list_mode && !p.ctrl[RT_OVERFLOW];
  if (list) { // 64 threads
    if (p.s.snow) rt_draw_list<true>(p, bs, sgeo, scol);
    else rt_draw_list<false>(p, bs, sgeo, scol);
  } else if (p.small) { // the small path
    if (p.s.snow) rt_draw_all<1, RT_SMALL_NT, RT_SMALL_K>(p, bs, sgeo, scol);
    else rt_draw_all<0, RT_SMALL_NT, RT_SMALL_K>(p, bs, sgeo, scol);
  } else { // the list path's launch after an overflow (64 threads): correct, not fast
    rt_draw_all<2, 64, RT_K>(p, bs, sgeo, scol);
  }
}

// ---------------------------------------------------------------- host: the workspace and the launches
// Where everything lives in the workspace (offsets in bytes, 256-aligned).
struct rt_plan {
  int lists;  // 1: the list path
  int tiles_x, tiles_y, tiles;
  int nb;     // circle blocks
  int cap;    // most pairs
  int stride; // most pair blocks: the row length of hist
  int passes; // radix passes
  size_t ctrl, boff, estart, hist, rowtot, edges, start, rec, keys_a, vals_a, keys_b, vals_b, bytes;
};

static size_t rt_take(size_t *at, size_t bytes) {
  const size_t here = *at;
  *at += (bytes + 255) / 256 * 256;
  return here;
}

static rt_plan rt_make_plan(int n, int w, int h) {
  rt_plan p = {};
  p.tiles_x = (w + RT_TILE - 1) / RT_TILE, p.tiles_y = (h + RT_TILE - 1) / RT_TILE;
  p.tiles = p.tiles_x * p.tiles_y;
  p.lists = n > RT_SMALL_N && w > 0 && h > 0;
  if (!p.lists) return p;
  const long long most = (long long)n * p.tiles; // every circle on every tile
  p.cap = (int)(most < RT_CAP ? most : RT_CAP);
  p.nb = (n + RT_CB - 1) / RT_CB;
  p.stride = (p.cap + RT_PB - 1) / RT_PB;
  int bits = 1;
  while ((1LL << bits) < p.tiles) bits++;
  p.passes = (bits + RT_DIGIT - 1) / RT_DIGIT;
  size_t at = 0;
  p.ctrl = rt_take(&at, RT_CTRL_INTS * sizeof(int));
  p.boff = rt_take(&at, (size_t)(p.nb + 1) * sizeof(int));
  p.estart = rt_take(&at, (size_t)p.stride * sizeof(int));
  p.hist = rt_take(&at, (size_t)RT_BUCKETS * p.stride * sizeof(int));
  p.rowtot = rt_take(&at, RT_BUCKETS * sizeof(int));
  p.edges = rt_take(&at, (size_t)2 * (p.tiles_x + p.tiles_y) * sizeof(float));
  p.start = rt_take(&at, (size_t)(p.tiles + 1) * sizeof(int));
  p.rec = rt_take(&at, (size_t)n * 2 * sizeof(float4));
  p.keys_a = rt_take(&at, (size_t)p.cap * sizeof(unsigned));
  p.vals_a = rt_take(&at, (size_t)p.cap * sizeof(unsigned));
  p.keys_b = rt_take(&at, (size_t)p.cap * sizeof(unsigned));
  p.vals_b = rt_take(&at, (size_t)p.cap * sizeof(unsigned));
  p.bytes = at;
  if (p.bytes > ((size_t)256 << 20)) p.lists = 0; // far beyond the case table (n > 3.5M): test every circle
  return p;
}

size_t render_workspace(int n, int width, int height) {
  const rt_plan p = rt_make_plan(n, width, height);
  return p.lists ? p.bytes : 0;
}

#define RT_TRY(call)                                                                                                   \
  do {                                                                                                                 \
    cudaError_t rt_err = (call);                                                                                       \
    if (rt_err != cudaSuccess) return rt_err;                                                                          \
  } while (0)

// Launches kernel k on the default stream; with `chained`, as a programmatic
// dependent launch (the kernel calls rt_after_previous() first: see the top).
template <typename... Params, typename... Args>
static cudaError_t rt_launch(int chained, void (*k)(Params...), int grid, int threads, size_t smem, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr = {};
  cfg.gridDim = dim3(grid), cfg.blockDim = dim3(threads), cfg.dynamicSmemBytes = smem, cfg.stream = 0;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr, cfg.numAttrs = chained ? 1 : 0;
  RT_TRY(cudaLaunchKernelEx(&cfg, k, args...));
  return cudaGetLastError();
}

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  if (width <= 0 || height <= 0 || scene.n < 0) return cudaErrorInvalidValue;
  const rt_plan plan = rt_make_plan(scene.n, width, height);
  rt_params rp = {};
  rp.s = scene, rp.w = width, rp.h = height, rp.image = d_image;
  if (!plan.lists || !d_work) { // the small path: every tile tests every circle
    rp.list_mode = 0, rp.small = 1, rp.tiles_x = (width + RT_SMALL_TW - 1) / RT_SMALL_TW;
    const int tiles = rp.tiles_x * ((height + RT_SMALL_TW - 1) / RT_SMALL_TW);
    return rt_launch(0, render_image, tiles, RT_SMALL_NT, 2 * RT_SMALL_K * RT_SMALL_NT * sizeof(float4), rp);
  }
  char *ws = (char *)d_work;
  int *ctrl = (int *)(ws + plan.ctrl), *boff = (int *)(ws + plan.boff), *estart = (int *)(ws + plan.estart);
  int *hist = (int *)(ws + plan.hist), *rowtot = (int *)(ws + plan.rowtot), *start = (int *)(ws + plan.start);
  float *edges = (float *)(ws + plan.edges);
  float4 *rec = (float4 *)(ws + plan.rec);
  unsigned *keys[2] = {(unsigned *)(ws + plan.keys_a), (unsigned *)(ws + plan.keys_b)};
  unsigned *vals[2] = {(unsigned *)(ws + plan.vals_a), (unsigned *)(ws + plan.vals_b)};
  // The pair kernels loop over the pair blocks (their number is known on the
  // device only): a grid of a few blocks per SM.
  int dev, sms, major;
  RT_TRY(cudaGetDevice(&dev));
  RT_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  RT_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  const int pair_grid = min(plan.stride, 8 * sms);
  const int chained = RT_CFG_PDL && major >= 9; // every launch after the first

  RT_TRY(rt_launch(0, rt_count, plan.nb, RT_CT, 0, scene, width, height, plan.tiles_x, plan.tiles_y, plan.cap, rec,
                   boff, edges));
  RT_TRY(rt_launch(chained, rt_scan_counts, 1, 1024, 0, boff, plan.nb, plan.cap, ctrl, estart));
  RT_TRY(rt_launch(chained, rt_emit, pair_grid, RT_CT, 0, scene, width, height, plan.tiles_x, plan.tiles_y,
                   (const int *)boff, (const int *)estart, (const int *)ctrl, (const float *)edges, keys[0], vals[0],
                   hist, plan.stride));
  int cur = 0; // the buffer that holds the pairs
  for (int pass = 0; pass < plan.passes; pass++) {
    if (pass > 0)
      RT_TRY(rt_launch(chained, rt_hist, pair_grid, RT_PT, 0, (const unsigned *)keys[cur], hist, plan.stride,
                       (const int *)ctrl, RT_DIGIT * pass));
    RT_TRY(rt_launch(chained, rt_row_scan, RT_BUCKETS, 256, 0, hist, plan.stride, (const int *)ctrl, rowtot));
    RT_TRY(rt_launch(chained, rt_scatter, pair_grid, RT_PT, 0, (const unsigned *)keys[cur], (const unsigned *)vals[cur],
                     keys[cur ^ 1], vals[cur ^ 1], (const int *)hist, plan.stride, (const int *)rowtot,
                     (const int *)ctrl, RT_DIGIT * pass));
    cur ^= 1;
  }
  RT_TRY(rt_launch(chained, rt_bounds, min((plan.cap + 1 + 4 * 256 - 1) / (4 * 256), 8 * sms), 256, 0,
                   (const unsigned *)keys[cur], (const int *)ctrl, plan.tiles, start));

  rp.list_mode = 1, rp.small = 0, rp.tiles_x = plan.tiles_x;
  rp.rec = rec, rp.start = start, rp.list = vals[cur], rp.ctrl = ctrl;
  const int threads = RT_TILE * RT_TILE / 4;
  return rt_launch(chained, render_image, plan.tiles, threads, 2 * RT_K * threads * sizeof(float4), rp);
}
