// large_scan.cu: GPU-tier fault "lookback-lastrow" (grader/tests/gpu-tier.sh):
// the 04 solution, with a look-back that keeps only the sum of the last window
// it reads (the one holding the nearest inclusive prefix) and forgets the
// aggregates of the windows it passed on the way. It is right whenever every
// tile finds a prefix within its first 32 predecessors, so only the stress case
// (a hog kernel beside the scan) and the large cases show it.
//
// The solution's lookback.cuh is included first with its ls_look_back renamed;
// its include guard then keeps large_scan.cu from including it again, so the
// solution's kernels call the ls_look_back below. They are built with the
// look-back to the nearest PREFIX (LS_CFG_AHEAD 0), the one the handout asks
// a student for: the reference's own, which ends at the block's previous
// tile (LS_CFG_AHEAD 1), does not call ls_look_back.
#define LS_CFG_AHEAD 0
#include <stdint.h>

#include "large_scan.h"
#define ls_look_back ls_look_back_solution
#include "../../../../../solutions/04-large-scan/lookback.cuh"
#undef ls_look_back

// Windows of one row of 32 tiles (the solution's default), lane i watching tile
// end - 1 - i; a window is summed once every tile nearer than its nearest
// PREFIX has published something.
static __device__ __forceinline__ unsigned ls_look_back(int layout, unsigned *slots, unsigned tile, unsigned epoch,
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
    prefix = ls_warp_sum((unsigned)lane <= near_lane ? value : 0); // FAULT: the solution adds (+=) each window's sum
    if (prefixes) break;
  }
  if (lane == 0) ls_publish(layout, ls_slot(layout, slots, tile), epoch, LS_PREFIX, prefix + aggregate);
  return prefix;
}

#include "../../../../../solutions/04-large-scan/large_scan.cu"
