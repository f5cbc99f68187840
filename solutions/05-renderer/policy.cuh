// policy.cuh: the tuned values of the 05 reference renderer and the constants
// of its design (layer: policy; every other layer includes it).
//
// rt_policy is the one place where the renderer's tuning lives: the values
// chosen on the H100 (docs/results/tuning-05-h100.txt). Each is a plain
// number, and every value it allows runs the same code;
// assignments/05-renderer/research/tune.sh builds variants of them. The experiments that
// lost (16 x 16 tiles on the small path, a chunk of its own for the small path,
// dependent launches off or with early triggers) are gone from the code; the
// last commit that has them is 70878bb (assignments/05-renderer/research/README.md).
//
// The constants after it follow from the design (tile sides, block sizes, the
// radix digit, the workspace's control words) and are not tuned.
#pragma once

struct rt_policy {
  // At most this many circles: the small path (render_image alone, no lists).
  static constexpr int small_n = 2048;
  // Circles a thread stages per chunk in render_image (both modes).
  static constexpr int stage_k = 4;
  // render_image: blocks of 256 threads an SM must fit (__launch_bounds__;
  // 4 is 64 registers a thread).
  static constexpr int min_blocks = 4;
  // Most (tile, circle) pairs the workspace holds; a frame with more builds no
  // lists, and render_image then tests every circle on every tile.
  static constexpr int max_pairs = 8 << 20;
};

// ---------------------------------------------------------------- tiles
constexpr int RT_SMALL_TW = 32;                              // small path: tile side in pixels
constexpr int RT_SMALL_NT = RT_SMALL_TW * RT_SMALL_TW / 4;   // small path: threads a block (4 pixels each)
constexpr int RT_TILE = 16;                                  // list path: tile side in pixels
constexpr int RT_TILE_NT = RT_TILE * RT_TILE / 4;            // list path: threads a block (4 pixels each)

// ---------------------------------------------------------------- the list builders' blocks
constexpr int RT_CT = 256;             // threads of rt_count and rt_emit
constexpr int RT_CPT = 4;              // circles a thread of rt_count takes
constexpr int RT_CB = RT_CT * RT_CPT;  // circles per circle block (rt_count, rt_emit)
constexpr int RT_PB = 4096;            // pairs per pair block (rt_emit, rt_hist, rt_scatter)
constexpr int RT_PT = 256;             // threads of those blocks
constexpr int RT_IPT = RT_PB / RT_PT;  // pairs a thread (16)
constexpr int RT_DIGIT = 6;            // radix digit bits
constexpr int RT_BUCKETS = 1 << RT_DIGIT;

// ---------------------------------------------------------------- list values and control words
constexpr unsigned RT_HOLE = 0x80000000u; // in a list value: the circle cannot touch this tile
constexpr unsigned RT_FULL = 0xffffffffu; // every lane of a warp; also "no key"
// ctrl[]: what rt_scan_counts found, for the kernels after it.
constexpr int RT_PAIRS = 0;     // P, the number of pairs (0 on overflow)
constexpr int RT_NBLOCKS = 1;   // ceil(P / RT_PB)
constexpr int RT_OVERFLOW = 2;  // 1: P > capacity: no lists are built and render_image tests every circle
constexpr int RT_CTRL_INTS = 4;

// The small path's hit offsets are one warp scan of its (round, warp) counts
// (rt_draw_all), so a chunk has at most 32 of them.
static_assert(rt_policy::stage_k >= 1 && rt_policy::stage_k * (RT_SMALL_NT / 32) <= 32,
              "stage_k: 1 to 4 (the small path scans its stage_k x 8 hit counts in one warp)");
static_assert(RT_PB % RT_PT == 0 && RT_CB % 4 == 0, "pair and circle blocks split evenly");
