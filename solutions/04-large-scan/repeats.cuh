// repeats.cuh (solution, assignment 04; layer: find_repeats): find_repeats is
// a stream compaction on the scan's machinery. Each thread flags the elements
// of its warp-owned vectors (tile_io.cuh) that equal the next element; the
// flags' counts are scanned as a scan's sums are (block_scan.cuh, then the
// look-back); and each set flag's index is written at its scanned position.
#ifndef LS_REPEATS_CUH
#define LS_REPEATS_CUH

#include "block_scan.cuh"
#include "tile_io.cuh"

// `flags` with bit at + k set where element i + k of vector a (elements
// i .. i + 3) equals the next element, which exists; `after` is element i + 4.
static __device__ __forceinline__ unsigned ls_vector_flags(unsigned flags, uint4 a, unsigned after, size_t i, size_t n,
                                                           int at) {
  flags |= (unsigned)(i + 1 < n && a.x == a.y) << at;
  flags |= (unsigned)(i + 2 < n && a.y == a.z) << (at + 1);
  flags |= (unsigned)(i + 3 < n && a.z == a.w) << (at + 2);
  flags |= (unsigned)(i + 4 < n && a.w == after) << (at + 3);
  return flags;
}

// The flags of a thread's warp-owned vectors v of the tile at `base`: bit
// 4j + k flags element 4 * ls_warp_vec(j) + k, set when it equals the next
// element and that one exists. cnt[j] gets vector j's count of flags.
// `after` is the element after the warp's part of the tile (lane 31's,
// ls_fetch_warp).
static __device__ __forceinline__ unsigned ls_warp_flags(const uint4 v[LS_VECS], unsigned after, size_t base, size_t n,
                                                         unsigned cnt[LS_VECS]) {
  int lane = threadIdx.x & 31;
  unsigned flags = 0;
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    // The element after vector j: lane l + 1's vector j, lane 0's vector j + 1, or `after`.
    unsigned down = __shfl_down_sync(LS_FULL_MASK, v[j].x, 1);
    unsigned wrap = j < LS_VECS - 1 ? __shfl_sync(LS_FULL_MASK, v[j < LS_VECS - 1 ? j + 1 : j].x, 0) : after;
    unsigned next = lane < 31 ? down : wrap;
    unsigned f = ls_vector_flags(0, v[j], next, base + 4 * (size_t)ls_warp_vec(j), n, 0);
    cnt[j] = __popc(f);
    flags |= f << (4 * j);
  }
  return flags;
}

// One vector's repeats out, from position `pos` on: bit k of `flags` marks
// element first + k. Each thread writes its own indices: putting the tile's
// list together in shared memory first, to write whole sectors, was 3-4 %
// slower on the H100 (a barrier a round, for lists of 1 element in 16;
// docs/tuning-04.md).
static __device__ __forceinline__ void ls_put_repeats(unsigned *out, unsigned pos, unsigned flags, unsigned first) {
  for (; flags; flags &= flags - 1) out[pos++] = first + __ffs(flags) - 1;
}

#endif
