// GPU-tier fault emit-nosync (grader/tests/gpu-tier-05.sh): the 05 solution with one barrier of
// its list path removed: rt_emit (binning) without the barrier between staging each circle's first pair so[] and the binary searches that read other threads' entries of it. This file is solutions/05-renderer/renderer.cu with
// the unchanged layers included from solutions/05-renderer/ and the faulty binning.cuh from
// this folder. compute-sanitizer racecheck on rand10k-80x60 (a list-path case) must report it.
// renderer.cu: the circle renderer of assignment 05 (reference solution), and
// its host layer: render_workspace, render and the launches.
//
// Two paths, chosen by the circle count n in render():
//
// Small scenes (n <= rt_policy::small_n): render_image alone, in "all" mode.
// One block of 256 threads per 32 x 32 tile tests every circle against its
// tile, chunk by chunk, compacts the hits in index order into shared memory
// and blends them. No workspace.
//
// Large scenes: global per-tile lists of circle indices in increasing index,
// built with scans and a stable radix sort, then render_image in "list" mode
// (one block of 64 threads per 16 x 16 tile, walking its list). A frame of
// 1024 x 1024 (4096 tiles, two radix passes) is ten launches: rt_count,
// rt_scan_counts, rt_emit, rt_row_scan, rt_scatter, rt_hist, rt_row_scan,
// rt_scatter, rt_bounds, render_image; on compute capability 9.0 and up every
// launch after the first is a programmatic dependent launch (common.cuh).
//
// The layers, one file each, included below in this order:
//   policy.cuh   the tuned values (rt_policy) and the design's constants
//   common.cuh   device helpers: unfused arithmetic, geometry, scans, the
//                dependent-launch wait
//   binning.cuh  circles -> (tile, circle) pairs: rt_count, rt_scan_counts, rt_emit
//   sort.cuh     pairs sorted by tile, each tile's run: rt_row_scan, rt_scatter,
//                rt_hist, rt_bounds
//   draw.cuh     render_image, in list mode and all mode
//   plan.cuh     which path a frame takes, and the workspace's layout (host)
//   renderer.cu  this file: the host layer
//
// Every pixel is blended by one thread, over the circles in increasing index,
// with the course helpers: the image equals the CPU reference's bit for bit
// (snow: up to expf's last bits).
#include "renderer.h"

#include "../../../../../solutions/05-renderer/policy.cuh"
#include "../../../../../solutions/05-renderer/common.cuh"
#include "binning.cuh"
#include "../../../../../solutions/05-renderer/sort.cuh"
#include "../../../../../solutions/05-renderer/draw.cuh"
#include "../../../../../solutions/05-renderer/plan.cuh"

// ---------------------------------------------------------------- host: the workspace and the launches
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
// dependent launch (the kernel calls rt_after_previous() first: common.cuh).
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
    return rt_launch(0, render_image, tiles, RT_SMALL_NT, rt_stage_bytes(RT_SMALL_NT), rp);
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
  const int chained = major >= 9; // every launch after the first

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
  return rt_launch(chained, render_image, plan.tiles, RT_TILE_NT, rt_stage_bytes(RT_TILE_NT), rp);
}
