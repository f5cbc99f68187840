// plan.cuh: the list path's plan (layer: plan, host code): which path a frame
// takes, and where each array of the list path lives in the workspace.
//
// Workspace (list path): two key/value buffers of rt_policy::max_pairs pairs
// (16 bytes a pair: 128 MiB), a 32-byte record per circle, and small arrays
// (counts, offsets, tile starts): 129 MiB for rand10k, 190 MiB for micro2M.
// Nothing in it is reused across frames: every array is written before it is
// read in each frame. A frame with more pairs than that (none in the case
// table: rand100k has 5.1M) builds no lists, and render_image then tests
// every circle on every tile: correct, slow.
#pragma once

#include <stddef.h>

#include "policy.cuh"

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
  p.lists = n > rt_policy::small_n && w > 0 && h > 0;
  if (!p.lists) return p;
  const long long most = (long long)n * p.tiles; // every circle on every tile
  p.cap = (int)(most < rt_policy::max_pairs ? most : rt_policy::max_pairs);
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
