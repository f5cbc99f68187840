// window_lookback.cuh (research, assignment 04; the probe's): the look-back
// to the nearest inclusive PREFIX, one warp reading windows of 32 status
// slots, as the 04 reference had it until 5181187 (2026-11-26) and kept it,
// for builds with LS_CFG_AHEAD 0, until 70878bb. The reference now looks back
// only as far as its block's previous tile (solutions/04-large-scan/
// lookback.cuh); the probe's questions 4 to 12 time this one. Copied from
// 70878bb's lookback.cuh with its knobs at their defaults: LS_LOOKS = 1 row a
// window (LS_CFG_LOOKS), no pause between polls (LS_CFG_BACKOFF_NS 0).
// Included after the solution's large_scan.cu, whose lookback.cuh it uses.
#ifndef LS_WINDOW_LOOKBACK_CUH
#define LS_WINDOW_LOOKBACK_CUH

enum { LS_LOOKS = 1 }; // rows of 32 tiles in each look-back window after the first

// Called by warp 0 of the block that owns `tile`, after ls_publish_aggregate.
// Looks back over windows of tiles: lane i watches tile end - 1 - i - 32k,
// k = 0 .. rows - 1, every slot of the window read at once; the first window
// has one row (32 tiles), the later ones LS_LOOKS rows. The window is summed
// once every tile up to the nearest PREFIX in it has published something
// (tiles beyond that PREFIX may still be loading: they are not waited for);
// with no PREFIX in it, once all have, and the window moves back. Returns the
// sum of every earlier tile, after publishing this tile's PREFIX. Never waits
// on a tile that has not started: tile ids come from the ticket, so every
// smaller id belongs to a block that is already running. Nor forever: before
// publishing a tile's aggregate, a block waits at most for its own look-back
// on an earlier tile, so the smallest tile without a PREFIX always gets one.
//
static __device__ __forceinline__ unsigned ls_look_back(int layout, unsigned *slots, unsigned tile, unsigned epoch,
                                                       unsigned aggregate) {
  int lane = threadIdx.x & 31;
  if (tile == 0) return 0;
  unsigned prefix = 0;
  long long end = tile;
  int rows = 1; // the first window is 32 tiles: its nearest tiles are often still loading
  for (;;) {
    unsigned status[LS_LOOKS], value[LS_LOOKS];
    int near;          // the row of the window's nearest PREFIX (LS_LOOKS: none)
    unsigned near_lane; // its lane in that row
    for (;;) {
#pragma unroll
      for (int k = 0; k < LS_LOOKS; k++) {
        long long p = end - 1 - 32 * k - lane;
        status[k] = k < rows ? LS_PREFIX : LS_AGGREGATE, value[k] = 0; // before tile 0, or a row not read: add 0
        if (p >= 0 && k < rows) status[k] = ls_peek(layout, ls_slot(layout, slots, p), epoch, &value[k]);
      }
      near = LS_LOOKS, near_lane = 31;
      bool wait = false;
#pragma unroll
      for (int k = 0; k < LS_LOOKS; k++) {
        unsigned prefixes = __ballot_sync(LS_FULL_MASK, status[k] == LS_PREFIX);
        unsigned missing = __ballot_sync(LS_FULL_MASK, status[k] == LS_NOT_READY);
        if (near < LS_LOOKS) continue; // beyond the nearest PREFIX: not needed
        unsigned before = prefixes ? (prefixes & (0u - prefixes)) - 1 : LS_FULL_MASK; // lanes nearer than it
        wait |= (missing & before) != 0;
        if (prefixes) near = k, near_lane = __ffs(prefixes) - 1;
      }
      if (!wait) break;
    }
    unsigned mine = 0;
#pragma unroll
    for (int k = 0; k < LS_LOOKS; k++) mine += k < near || (k == near && (unsigned)lane <= near_lane) ? value[k] : 0;
    prefix += ls_warp_sum(mine);
    if (near < LS_LOOKS) break;
    end -= 32 * rows;
    rows = LS_LOOKS;
  }
  if (lane == 0) ls_publish(layout, ls_slot(layout, slots, tile), epoch, LS_PREFIX, prefix + aggregate);
  return prefix;
}

#endif
