// draw.cuh: the kernel that writes the pixels, render_image (layer: draw). [GPU-tier fault draw-list-nosync: a copy of solutions/05-renderer/draw.cuh with one barrier removed]
// One block per tile, in one of two modes:
//
// List mode (the list path, 16 x 16 tiles of 64 threads): each tile walks its
// list from sort.cuh in chunks staged through shared memory. Warp w owns a
// band of 16 x 8 pixels (rows 8w .. 8w + 7 of the tile), lane l of it the
// pixels at columns l % 8 and l % 8 + 8, rows l / 8 and l / 8 + 4 of the band
// (so each of the warp's four pixel rounds is an 8 x 4 block, and a small
// circle covers few of them). The thread that stages a circle computes, for
// each band, whether the circle can touch it (distance from its centre to the
// nearest pixel centre of the band) and whether it covers all of it (distance
// to the farthest corner). A warp skips the circles that miss its band, and
// blends those that cover all of it with no test per pixel. Both tests are
// exact, not approximate: they apply the float operations of render_dist2 /
// render_covers to a point at least as near (as far) as any pixel centre of
// the band, and rounding is monotonic, so "miss" implies that no pixel is
// covered and "full" that all are.
//
// All mode (the small path, 32 x 32 tiles of 256 threads; and the list path's
// launch after an overflow, 16 x 16 tiles of 64): each block tests every
// circle against its tile, chunk by chunk, compacts the hits in index order
// (ballot, popc and a scan of the warp counts) into shared memory and blends
// them.
//
// Every pixel is blended by one thread, over the circles in increasing index,
// with the course helpers: the image equals the CPU reference's bit for bit
// (snow: up to expf's last bits).
#pragma once

#include "common.cuh"

// What render() hands render_image (one struct: a kernel parameter).
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
  int counts[2][rt_policy::stage_k][8]; // all mode: hits per (round j, warp) of a chunk, double-buffered by chunk parity
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

// List mode: one block of 64 threads per 16 x 16 tile (this file's top). Cost per
// tile: 4 + 32 bytes a list entry (index; record, one sector, gathered); per
// entry and warp ~8 instructions to skip it, ~18 to test the 4 pixels, ~10 a
// blended pixel (~7 when the band is covered whole; snow ~80); 16 bytes a
// pixel written.
template <bool SNOW>
static __device__ __forceinline__ void rt_draw_list(const rt_params &p, rt_block_state &bs, float4 *sgeo,
                                                    float4 *scol) {
  constexpr int K = rt_policy::stage_k, nt = RT_TILE_NT;
  const int t = threadIdx.x, warp = t >> 5;
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
  for (int chunk = 0; chunk < len; chunk += nt * K) {
    // Stage: entry chunk + j nt + t (list order = circle order) to slot
    // j nt + t, with flags 0 (every warp skips it) for a hole or a circle
    // that touches no band. One 32-byte record a circle.
    int idx[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
      const int c = chunk + j * nt + t;
      const unsigned v = c < len ? __ldg(&p.list[first + c]) : RT_HOLE;
      idx[j] = v & RT_HOLE ? -1 : (int)v;
    }
    float4 geo[K];
#pragma unroll
    for (int j = 0; j < K; j++)
      geo[j] = idx[j] >= 0 ? __ldg(&p.rec[2 * idx[j]]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    // Barrier A: every thread is done blending the previous chunk (and, the
    // first time, the bands are set).
    __syncthreads();
#pragma unroll
    for (int j = 0; j < K; j++) {
      const unsigned f = idx[j] >= 0 ? rt_classify(geo[j].x, geo[j].y, geo[j].z, xlo, xhi, bs) : 0u;
      geo[j].w = __uint_as_float(f);
      sgeo[j * nt + t] = geo[j];
      if (f) scol[j * nt + t] = __ldg(&p.rec[2 * idx[j] + 1]); // the same sector as the geometry
    }
    // FAULT (GPU tier): barrier B is gone: warps read sgeo/scol entries other warps are
    // still staging, a shared-memory race racecheck must report.
    // Blend, in list order; every thread of a warp reads the same entry (a broadcast).
    const int total = min(nt * K, len - chunk);
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
// stores whole row segments. Chunks of K NT circles (K = rt_policy::stage_k): each thread tests
// K of them against the tile (circle chunk + j NT + t: coalesced), the
// hits are compacted in index order (ballot and popc in a warp, a scan of the
// (j, warp) counts across warps), staged with their colours, and blended.
// Cost per tile: 12 bytes a circle read (from L2 after the first tiles) and
// ~15 instructions to test it; ~20 a hit and warp to test 4 pixels, ~10 a
// blended pixel; 16 bytes a pixel written.
template <int SNOW_MODE, int NT> // SNOW_MODE 0: normal, 1: snow, 2: p.s.snow (decided at run time)
static __device__ __forceinline__ void rt_draw_all(const rt_params &p, rt_block_state &bs, float4 *sgeo,
                                                   float4 *scol) {
  const render_scene &s = p.s;
  const int SNOW = SNOW_MODE == 2 ? s.snow : SNOW_MODE;
  constexpr int K = rt_policy::stage_k, nt = NT, nw = NT / 32, tw = NT == RT_SMALL_NT ? RT_SMALL_TW : RT_TILE;
  constexpr int rows = NT / tw;
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
    // place in its ballot. Lane e holds pair e's count, and one warp scan of
    // the K nw counts gives every offset and the chunk's total.
    static_assert(K * nw <= 32, "one warp scans the (round, warp) counts of a chunk");
    const int v = lane < K * nw ? bs.counts[parity][lane / nw][lane % nw] : 0;
    const int incl = rt_warp_inclusive(v);
    const int total = __shfl_sync(RT_FULL, incl, 31);
    int slot[K];
#pragma unroll
    for (int j = 0; j < K; j++) slot[j] = __shfl_sync(RT_FULL, incl - v, j * nw + warp) + __popc(ballot[j] & below);
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

// render_image's dynamic shared memory for blocks of `threads`.
static constexpr size_t rt_stage_bytes(int threads) { return 2 * rt_policy::stage_k * threads * sizeof(float4); }

// The kernel that writes the pixels: one block per tile, list mode or all mode
// (the small path, and the list path after an overflow). Dynamic shared
// memory: 2 rt_policy::stage_k blockDim.x float4 (staged circles: centre and
// radius (and flags); colour).
extern "C" __global__ void __launch_bounds__(256, rt_policy::min_blocks) render_image(rt_params p) {
  extern __shared__ float4 rt_stage[];
  __shared__ rt_block_state bs;
  float4 *sgeo = rt_stage, *scol = rt_stage + rt_policy::stage_k * blockDim.x;
  rt_after_previous(); // the list path's last launch: its lists are complete before any read
  const bool list = p.list_mode && !p.ctrl[RT_OVERFLOW];
  if (list) { // 64 threads
    if (p.s.snow) rt_draw_list<true>(p, bs, sgeo, scol);
    else rt_draw_list<false>(p, bs, sgeo, scol);
  } else if (p.small) { // the small path
    if (p.s.snow) rt_draw_all<1, RT_SMALL_NT>(p, bs, sgeo, scol);
    else rt_draw_all<0, RT_SMALL_NT>(p, bs, sgeo, scol);
  } else { // the list path's launch after an overflow (64 threads): correct, not fast
    rt_draw_all<2, RT_TILE_NT>(p, bs, sgeo, scol);
  }
}
