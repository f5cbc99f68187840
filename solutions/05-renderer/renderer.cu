// renderer.cu: the circle renderer of assignment 05 (reference solution).
//
// One kernel draws the whole frame. Thread-to-data mapping: one block of
// RT_THREADS threads per RT_TILE x RT_TILE tile of pixels; thread t owns the
// RT_PIXELS pixels of column t % 32 at rows t / 32 + RT_ROWS k, so a warp
// writes one 512-byte row segment at a time. The block walks the circles in
// chunks of RT_CHUNK, in index order:
//   1. test: each thread tests RT_PER_THREAD circles of the chunk against the
//      tile (circle i = chunk + j * RT_THREADS + t: coalesced loads);
//   2. scan: an exclusive scan of the hit flags in index order gives every
//      hit its slot: within a warp by ballot and popc, across warps and j by
//      a scan of the 32 warp counts kept in shared memory;
//   3. compact: each hit writes its circle (x, y, r, rgb) to its slot of the
//      shared list, which therefore holds the tile's circles of this chunk in
//      increasing index; two 16-byte entries, so the blend reads a circle
//      with one shared load and its colour with one more;
//   4. blend: every thread blends its pixels over the list, in registers.
// After the last chunk each pixel is written once. No workspace, no atomics:
// the order comes from the scan, and a pixel has one writer.
// Cost per frame: every block reads every circle's x, y, r (12 n bytes, from
// L2 after the first block), tests it once per tile, and blends each tile's
// hits once per pixel; the image is written once (16 bytes a pixel).
// ANSWERS.md discusses the alternatives (global per-tile lists, two levels).
#include "renderer.h"

// The shape can be changed from the compiler's command line for tuning
// experiments (-DRT_CFG_THREADS=128 -DRT_CFG_PER_THREAD=2).
#ifndef RT_CFG_THREADS
#define RT_CFG_THREADS 256 // threads a block: 64, 128, 256, 512 or 1024
#endif
#ifndef RT_CFG_PER_THREAD
#define RT_CFG_PER_THREAD 4 // circles each thread tests a chunk
#endif
#define RT_TILE 32                                 // tile side in pixels
#define RT_THREADS RT_CFG_THREADS                  // threads a block
#define RT_ROWS (RT_THREADS / RT_TILE)             // rows of threads
#define RT_PIXELS (RT_TILE * RT_TILE / RT_THREADS) // pixels a thread
#define RT_PER_THREAD RT_CFG_PER_THREAD            // circles tested by a thread a chunk
#define RT_CHUNK (RT_THREADS * RT_PER_THREAD)      // circles a chunk
#define RT_WARPS (RT_THREADS / 32)
// A circle is tested against the tile's rectangle of pixel centres grown by
// this much (in image units), so that float rounding can never drop a circle
// that covers one of the tile's pixels (render_covers' d2 <= r^2 is exact to a
// few 1e-7; 1e-5 is 1/100 of a pixel at 1024).
#define RT_MARGIN 1e-5f

size_t render_workspace(int n, int width, int height) {
  (void)n, (void)width, (void)height;
  return 0;
}

// 1 when circle (cx, cy, r) may cover a pixel centre in [xlo, xhi] x [ylo, yhi]:
// the distance from its centre to the nearest point of that rectangle.
static __device__ __forceinline__ int rt_hits(float cx, float cy, float r, float xlo, float xhi, float ylo, float yhi) {
  float dx = cx - fminf(fmaxf(cx, xlo), xhi), dy = cy - fminf(fmaxf(cy, ylo), yhi);
  float reach = r + RT_MARGIN;
  return dx * dx + dy * dy <= reach * reach;
}

extern "C" __global__ void __launch_bounds__(RT_THREADS) render_image(render_scene s, int width, int height,
                                                                      float4 *image) {
  // The compacted list of this chunk's circles that touch the tile: (x, y, r)
  // and (red, green, blue), each padded to 16 bytes.
  __shared__ float4 list_circle[RT_CHUNK], list_rgb[RT_CHUNK];
  __shared__ int warp_hits[RT_PER_THREAD][RT_WARPS]; // hits per (j, warp): what the scan adds up

  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int tile_x = blockIdx.x * RT_TILE, tile_y = blockIdx.y * RT_TILE;
  // The tile's pixel centres (a tile at the image's edge is cut short).
  const float xlo = render_pixel_centre(tile_x, width), ylo = render_pixel_centre(tile_y, height);
  const float xhi = render_pixel_centre(min(tile_x + RT_TILE, width) - 1, width);
  const float yhi = render_pixel_centre(min(tile_y + RT_TILE, height) - 1, height);

  const int px_i = tile_x + t % RT_TILE, py_i = tile_y + t / RT_TILE;
  const float px = render_pixel_centre(px_i, width);
  float py[RT_PIXELS];
  float4 pix[RT_PIXELS];
#pragma unroll
  for (int k = 0; k < RT_PIXELS; k++) {
    py[k] = render_pixel_centre(py_i + k * RT_ROWS, height);
    pix[k] = render_background(s.snow, py[k]);
  }

  for (int chunk = 0; chunk < s.n; chunk += RT_CHUNK) {
    // 1. test: circle chunk + j * RT_THREADS + t for j = 0 .. RT_PER_THREAD - 1.
    int hit[RT_PER_THREAD];
#pragma unroll
    for (int j = 0; j < RT_PER_THREAD; j++) {
      int i = chunk + j * RT_THREADS + t;
      hit[j] = i < s.n && rt_hits(__ldg(&s.x[i]), __ldg(&s.y[i]), __ldg(&s.r[i]), xlo, xhi, ylo, yhi);
    }
    // 2. scan. Within the warp: ballot and popc of the lanes below. The warp's
    // count goes to shared memory for the scan across (j, warp), in index order.
    unsigned ballot[RT_PER_THREAD];
#pragma unroll
    for (int j = 0; j < RT_PER_THREAD; j++) {
      ballot[j] = __ballot_sync(0xffffffffu, hit[j]);
      if (lane == 0) warp_hits[j][warp] = __popc(ballot[j]);
    }
    // Orders the counts' writes before their reads below; and, since every
    // thread has finished blending the previous chunk to get here, lets the
    // list be overwritten.
    __syncthreads();
    int total = 0, slot[RT_PER_THREAD];
#pragma unroll
    for (int j = 0; j < RT_PER_THREAD; j++)
      for (int w = 0; w < RT_WARPS; w++) {
        if (w == warp) slot[j] = total + __popc(ballot[j] & ((1u << lane) - 1u)); // exclusive: the hits before mine
        total += warp_hits[j][w];
      }
    if (total == 0) { // the same for the whole block: no circle of this chunk touches the tile
      __syncthreads(); // the counts are read by all before the next chunk rewrites them
      continue;
    }
    // 3. compact, in index order.
#pragma unroll
    for (int j = 0; j < RT_PER_THREAD; j++) {
      if (!hit[j]) continue;
      int i = chunk + j * RT_THREADS + t, k = slot[j];
      list_circle[k] = make_float4(s.x[i], s.y[i], s.r[i], 0.0f);
      list_rgb[k] = make_float4(s.rgb[3 * i], s.rgb[3 * i + 1], s.rgb[3 * i + 2], 0.0f);
    }
    __syncthreads(); // the list is complete before anyone blends from it
    // 4. blend, in list order = index order. Every thread reads the same entry: a broadcast.
    for (int k = 0; k < total; k++) {
      float4 c = list_circle[k];
#pragma unroll
      for (int m = 0; m < RT_PIXELS; m++) {
        float d2 = render_dist2(px, py[m], c.x, c.y);
        if (render_covers(d2, c.z)) {
          float4 rgb = list_rgb[k];
          pix[m] = render_blend(pix[m], s.snow, d2, c.z, rgb.x, rgb.y, rgb.z);
        }
      }
    }
  }
  // Every pixel of the image, written once.
#pragma unroll
  for (int m = 0; m < RT_PIXELS; m++) {
    int y = py_i + m * RT_ROWS;
    if (px_i < width && y < height) image[(size_t)y * width + px_i] = pix[m];
  }
}

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  (void)d_work;
  if (width <= 0 || height <= 0 || scene.n < 0) return cudaErrorInvalidValue;
  dim3 grid((width + RT_TILE - 1) / RT_TILE, (height + RT_TILE - 1) / RT_TILE);
  render_image<<<grid, RT_THREADS>>>(scene, width, height, d_image);
  return cudaGetLastError();
}
