// large_scan.cu: GPU-tier fault "lookback-lastrow" (grader/tests/gpu-tier.sh):
// the 04 solution, with exclusive_scan replaced by a one-pass scan whose
// look-back is the one the handout asks a student for (to the nearest
// inclusive prefix, window after window: the solution's own ends at the
// block's previous tile instead, lookback.cuh), with one fault: it keeps only
// the sum of the last window it reads (the one holding the nearest inclusive
// prefix) and forgets the aggregates of the windows it passed on the way. It
// is right whenever every tile finds a prefix within its first 32
// predecessors, so only the stress case (a hog kernel beside the scan) and
// the large cases show it.
#define exclusive_scan static exclusive_scan_solution // static: the inspection allows no global its header does not declare
#include "solution.cu" // the solution's file, beside this one in the folder make gpu-faults assembles
#undef exclusive_scan

// Called by warp 0 of the block that owns `tile`, after ls_publish_aggregate.
// Windows of one row of 32 tiles, lane i watching tile end - 1 - i; a window
// is summed once every tile nearer than its nearest PREFIX has published
// something. Returns the sum of the earlier tiles, after publishing this
// tile's PREFIX.
static __device__ __forceinline__ unsigned fault_look_back(int layout, unsigned *slots, unsigned tile, unsigned epoch,
                                                          unsigned aggregate) {
  int lane = threadIdx.x & 31;
  if (tile == 0) return 0;
  unsigned prefix = 0;
  for (long long end = tile;; end -= 32) {
    long long p = end - 1 - lane;
    unsigned value = 0, status = LS_PREFIX, prefixes; // before tile 0: a PREFIX of 0
    for (;;) {
      if (p >= 0) status = ls_peek(layout, ls_slot(layout, slots, p), epoch, &value);
      prefixes = __ballot_sync(LS_FULL_MASK, status == LS_PREFIX);
      unsigned missing = __ballot_sync(LS_FULL_MASK, status == LS_NOT_READY);
      unsigned nearer = prefixes ? (prefixes & (0u - prefixes)) - 1 : LS_FULL_MASK; // lanes before the nearest PREFIX
      if (!(missing & nearer)) break;
    }
    unsigned near_lane = prefixes ? __ffs(prefixes) - 1 : 31; // the window's lanes up to its nearest PREFIX count
    prefix = ls_warp_sum((unsigned)lane <= near_lane ? value : 0); // FAULT: a right look-back adds (+=) each window's sum
    if (prefixes) break;
  }
  if (lane == 0) ls_publish(layout, ls_slot(layout, slots, tile), epoch, LS_PREFIX, prefix + aggregate);
  return prefix;
}

// One tile a block, in ticket order: scanned in the block, its sum published,
// then the look-back above, then the tile out with its prefix.
static __global__ void LS_BOUNDS fault_scan_packed(const unsigned *in, unsigned *out, size_t n, unsigned tiles,
                                                   void *work) {
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes, as the solution's one-tile kernels
  __shared__ unsigned s_warp[LS_WARPS], s_tile, s_prefix;
  __shared__ ls_tickets s_tickets;
  unsigned *slots = (unsigned *)((ls_header *)work + 1);
  if (threadIdx.x == 0) s_tile = ls_first_ticket((ls_header *)work, tiles, &s_tickets); // one ticket a tile
  __syncthreads(); // the tile and the epoch are in shared memory before anyone reads them
  unsigned tile = s_tile, epoch = s_tickets.epoch;
  size_t base = (size_t)tile * LS_TILE;
  int valid = ls_valid(n, base);
  uint4 v[LS_VECS];
  ls_load_tile(in, base, valid, s_vec, v);
  unsigned aggregate, before = ls_block_exclusive(ls_thread_total(v), s_warp, &aggregate);
  if (threadIdx.x < 32) {
    if (threadIdx.x == 0) ls_publish_aggregate(LS_PACKED, slots, tile, epoch, aggregate);
    unsigned prefix = fault_look_back(LS_PACKED, slots, tile, epoch, aggregate);
    if (threadIdx.x == 0) s_prefix = prefix;
  }
  __syncthreads(); // the prefix is in shared memory before anyone reads it
  ls_thread_exclusive(v, s_prefix + before);
  ls_store_tile(out, base, valid, s_vec, v);
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  if (n > LARGE_SCAN_MAX_N || ls_misaligned(d_in) || ls_misaligned(d_out) || ls_misaligned(d_work))
    return cudaErrorInvalidValue;
  unsigned tiles = (unsigned)ls_tiles(n);
  LS_TRY(ls_allow_smem((const void *)fault_scan_packed, LS_SMEM_TILE));
  fault_scan_packed<<<tiles, LS_THREADS, LS_SMEM_TILE>>>(d_in, d_out, n, tiles, d_work);
  return cudaGetLastError();
}
