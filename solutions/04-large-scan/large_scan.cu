// large_scan.cu (solution, assignment 04; layer: host): device-wide
// exclusive scans of up to 2^28 unsigned ints, and find_repeats as a stream
// compaction on the same scan. The host entry points of large_scan.h: they
// check their arguments, size the grids, launch and return errors.
//
// Versions (the runner's variant table names them by these slugs):
//   decoupled_lookback  exclusive_scan: one pass. Each block takes a tile id from
//                       an atomic counter, scans its tile, publishes the tile's
//                       sum in one 64-bit status word (flag + value), and looks
//                       back over its predecessors' words as far as its own
//                       previous tile, whose inclusive prefix it knows, every
//                       thread reading one word. 2n elements moved.
//   lookback_acqrel     the same with flag, aggregate and prefix in separate
//                       32-bit words, ordered by st.release / ld.acquire.
//   hierarchical        scan the tiles, scan the tile sums recursively, add the
//                       scanned sums back: 4n elements moved, 2 launches a level.
//   reduce_then_scan    sum each tile, scan the sums (hierarchically: they are
//                       n / 12288), scan each tile again starting from its sum: 3n.
//   find_repeats        the look-back pass over the flags a[i] == a[i + 1], each
//                       set flag's index scattered to its scanned position: n read.
//
// The layers, as in CUB, one file each (this folder):
//   policy.cuh      the tile's shape: threads, elements a thread, blocks an SM
//   tile_io.cuh     loading and storing a tile (16-byte vectors, coalesced)
//   block_scan.cuh  the block scan: warp shuffles, then the warps' totals
//   lookback.cuh    the tile status, its memory accesses, the look-back, the tickets
//   repeats.cuh     find_repeats's flags and its scattered indices
//   kernels.cuh     the kernels, built from the layers above
//   large_scan.cu   the host (this file)
// How the tuning chose the shape and the look-back: docs/tuning-04.md.
#include <stdint.h>

#include "large_scan.h"
#include "kernels.cuh"

// Returns the first CUDA error of a call or a launch to the caller.
#define LS_TRY(call)                                                                                                   \
  do {                                                                                                                 \
    cudaError_t ls_err_ = (call);                                                                                      \
    if (ls_err_ != cudaSuccess) return ls_err_;                                                                        \
  } while (0)

// Tiles of n elements.
static size_t ls_tiles(size_t n) { return (n + LS_TILE - 1) / LS_TILE; }

// ---------------------------------------------------------------- host: workspace

// Words of tile sums at every level of the hierarchy for n elements, each
// level rounded up to 4 words so the next level's vectors stay aligned.
static size_t ls_level_words(size_t n) {
  size_t words = 0;
  for (size_t m = n; m > LS_TILE; m = ls_tiles(m)) words += (ls_tiles(m) + 3) & ~(size_t)3;
  return words;
}

// The header and a status slot per tile (lookback.cuh: 8 bytes packed, 16 acq_rel).
static size_t ls_lookback_bytes(size_t n, int layout) {
  return sizeof(ls_header) + 4 * LS_SLOT_WORDS(layout) * ls_tiles(n);
}

// One workspace serves every scan version: the largest they need.
size_t exclusive_scan_workspace(size_t n) {
  size_t a = ls_lookback_bytes(n, LS_ACQ_REL), b = 4 * ls_level_words(n);
  return a > b ? a : b;
}

size_t find_repeats_workspace(size_t n) { return ls_lookback_bytes(n, LS_PACKED); }

static int ls_misaligned(const void *p) { return ((uintptr_t)p & 15) != 0; }

// Lets `kernel` take `bytes` of dynamic shared memory, which past 48 KiB a
// kernel may only after it has asked: once per kernel and device (the
// attribute belongs to the device's copy of the kernel), before its occupancy
// is asked or it is launched.
static cudaError_t ls_allow_smem(const void *kernel, size_t bytes) {
  static struct {
    const void *kernel;
    int device;
  } done[16];
  int device, i;
  LS_TRY(cudaGetDevice(&device));
  for (i = 0; i < 16 && done[i].kernel; i++)
    if (done[i].kernel == kernel && done[i].device == device) return cudaSuccess;
  LS_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  if (i < 16) done[i].kernel = kernel, done[i].device = device; // else asked again next time: no harm
  return cudaSuccess;
}

// The grid of a single-pass kernel for `tiles` tiles, whose blocks take `smem`
// bytes of dynamic shared memory: as many blocks as fit on the GPU at once
// (asked once per kernel and device), and no more than there are tiles. The
// blocks are persistent: each takes tiles until the tickets run out, and its
// look-back ends at its own previous tile (lookback.cuh).
static cudaError_t ls_grid(const void *kernel, size_t smem, unsigned tiles, unsigned *grid) {
  static struct {
    const void *kernel;
    int device;
    unsigned blocks;
  } known[8];
  *grid = tiles;
  LS_TRY(ls_allow_smem(kernel, smem));
  int device, sms, per_sm;
  LS_TRY(cudaGetDevice(&device));
  for (int i = 0; i < 8 && known[i].kernel; i++)
    if (known[i].kernel == kernel && known[i].device == device) {
      if (known[i].blocks < tiles) *grid = known[i].blocks;
      return cudaSuccess;
    }
  LS_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  LS_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, LS_THREADS, smem));
  unsigned blocks = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
  for (int i = 0; i < 8; i++)
    if (!known[i].kernel) {
      known[i].kernel = kernel, known[i].device = device, known[i].blocks = blocks;
      break;
    }
  if (blocks < tiles) *grid = blocks;
  return cudaSuccess;
}

// ---------------------------------------------------------------- host: entry points

static cudaError_t ls_lookback_scan(int layout, const unsigned *in, unsigned *out, size_t n, void *work) {
  if (n == 0) return cudaSuccess;
  if (n > LARGE_SCAN_MAX_N || ls_misaligned(in) || ls_misaligned(out) || ls_misaligned(work))
    return cudaErrorInvalidValue;
  unsigned tiles = (unsigned)ls_tiles(n), grid;
  if (layout == LS_PACKED) {
    LS_TRY(ls_grid((const void *)ls_scan_packed, LS_SMEM_SCAN, tiles, &grid));
    ls_scan_packed<<<grid, LS_THREADS, LS_SMEM_SCAN>>>(in, out, n, tiles, tiles + grid, work);
  } else {
    LS_TRY(ls_grid((const void *)ls_scan_acq_rel, LS_SMEM_SCAN, tiles, &grid));
    ls_scan_acq_rel<<<grid, LS_THREADS, LS_SMEM_SCAN>>>(in, out, n, tiles, tiles + grid, work);
  }
  return cudaGetLastError();
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return ls_lookback_scan(LS_PACKED, d_in, d_out, n, d_work);
}

cudaError_t exclusive_scan_lookback_acqrel(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return ls_lookback_scan(LS_ACQ_REL, d_in, d_out, n, d_work);
}

// Scans tiles with their sums in sums[0..tiles), scans those in place one level
// up (recursion depth: 3 at 2^28), and adds them back.
cudaError_t exclusive_scan_hierarchical(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  if (n > LARGE_SCAN_MAX_N || ls_misaligned(d_in) || ls_misaligned(d_out) || ls_misaligned(d_work))
    return cudaErrorInvalidValue;
  unsigned tiles = (unsigned)ls_tiles(n);
  unsigned *sums = (unsigned *)d_work;
  LS_TRY(ls_allow_smem((const void *)ls_scan_tiles, LS_SMEM_TILE));
  ls_scan_tiles<<<tiles, LS_THREADS, LS_SMEM_TILE>>>(d_in, d_out, n, tiles > 1 ? sums : NULL, NULL);
  LS_TRY(cudaGetLastError());
  if (tiles == 1) return cudaSuccess;
  LS_TRY(exclusive_scan_hierarchical(sums, sums, tiles, sums + ((tiles + 3) & ~3u)));
  unsigned vectors = (unsigned)((n + 3) / 4);
  ls_add_carry<<<(vectors + 255) / 256, 256>>>(d_out, n, sums);
  return cudaGetLastError();
}

// Sums the tiles, scans the sums (hierarchically), scans each tile from its sum.
cudaError_t exclusive_scan_reduce_then_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  if (n > LARGE_SCAN_MAX_N || ls_misaligned(d_in) || ls_misaligned(d_out) || ls_misaligned(d_work))
    return cudaErrorInvalidValue;
  unsigned tiles = (unsigned)ls_tiles(n);
  unsigned *sums = (unsigned *)d_work;
  if (tiles > 1) {
    LS_TRY(ls_allow_smem((const void *)ls_reduce_tiles, LS_SMEM_TILE));
    ls_reduce_tiles<<<tiles, LS_THREADS, LS_SMEM_TILE>>>(d_in, n, sums);
    LS_TRY(cudaGetLastError());
    LS_TRY(exclusive_scan_hierarchical(sums, sums, tiles, sums + ((tiles + 3) & ~3u)));
  }
  LS_TRY(ls_allow_smem((const void *)ls_scan_tiles, LS_SMEM_TILE));
  ls_scan_tiles<<<tiles, LS_THREADS, LS_SMEM_TILE>>>(d_in, d_out, n, NULL, tiles > 1 ? sums : NULL);
  return cudaGetLastError();
}

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  if (n > LARGE_SCAN_MAX_N || ls_misaligned(d_in) || ls_misaligned(d_work)) return cudaErrorInvalidValue;
  if (n == 0) return cudaMemsetAsync(d_count, 0, sizeof *d_count, 0);
  unsigned tiles = (unsigned)ls_tiles(n), grid;
  // No dynamic shared memory: a held tile's flags and offsets wait in registers.
  LS_TRY(ls_grid((const void *)ls_repeats, 0, tiles, &grid));
  ls_repeats<<<grid, LS_THREADS, 0>>>(d_in, d_indices, d_count, n, tiles, tiles + grid, d_work);
  return cudaGetLastError();
}
