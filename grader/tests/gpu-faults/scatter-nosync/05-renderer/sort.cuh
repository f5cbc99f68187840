// sort.cuh: the list path's sort (layer: sort): the pairs of binning.cuh, [GPU-tier fault scatter-nosync: a copy of solutions/05-renderer/sort.cuh with one barrier removed]
// sorted by tile with a stable LSD radix sort of 6-bit digits (two passes for
// 4096 tiles), so each tile's pairs stay in circle order, then each tile's run
// found in the sorted keys.
//   4. a radix pass is rt_row_scan (offsets per digit and pair block),
//      rt_scatter (rank within the block by ballots, reorder in shared memory,
//      coalesced writes) and, before every pass but the first, rt_hist (the
//      pass's digit counts; rt_emit counts the first pass's).
//   5. rt_bounds: where each tile's run starts in the sorted keys.
#pragma once

#include "common.cuh"

// ---------------------------------------------------------------- 4a. rt_row_scan
// Block d: the counts of digit d in every pair block, hist[d * stride + e] for
// e < nblocks, become their exclusive scan; rowtot[d] = the row's sum. The
// scatter adds the scan of the 64 row sums (digit-major order = sorted order).
// Cost: 8 bytes a pair block and digit, 64 blocks.
static __global__ void __launch_bounds__(256) rt_row_scan(int *hist, int stride, const int *ctrl, int *rowtot) {
  rt_after_previous();
  __shared__ int ws[33];
  int *row = hist + blockIdx.x * stride;
  const int nb = ctrl[RT_NBLOCKS], t = threadIdx.x;
  int carry = 0;
  for (int base = 0; base < nb; base += 8 * 256) {
    int v[8], mine = 0;
#pragma unroll
    for (int q = 0; q < 8; q++) {
      const int k = base + 8 * t + q;
      v[q] = k < nb ? row[k] : 0;
      mine += v[q];
    }
    int round, run = carry + rt_block_scan<int>(mine, ws, &round);
#pragma unroll
    for (int q = 0; q < 8; q++) {
      const int k = base + 8 * t + q;
      if (k < nb) row[k] = run;
      run += v[q];
    }
    carry += round;
  }
  if (t == 0) rowtot[blockIdx.x] = carry;
}

// ---------------------------------------------------------------- 4b. rt_scatter
// Pair block e (looping as in rt_emit): pairs [e RT_PB, (e + 1) RT_PB). Warp w
// holds the 512 pairs from e RT_PB + 512 w in 16 rounds of 32 (pair = base +
// 32 j + lane: coalesced loads; (warp, round, lane) is the pairs' order).
// Sweep 1 ranks each pair within its warp and digit: the lanes of a round with
// the same digit find each other with 6 ballots; a lane's rank is the number
// of those below it plus the warp's count of the digit in earlier rounds,
// which the lowest lane then raises. The 8 x 64 counts give every (warp,
// digit) its first slot in the block's pairs sorted by digit; sweep 2 puts
// each pair in its slot in shared memory. Finally consecutive threads copy consecutive
// slots out to digit start (scan of the row sums) + this block's offset in
// the digit (rt_row_scan) + slot - the digit's first slot: runs of equal
// digits become coalesced stores. Stable: equal digits keep their order, so
// each tile's pairs stay in circle order.
// Cost: 8 bytes read and 8 written a pair; ~40 instructions a pair.
static __global__ void __launch_bounds__(RT_PT, 3) rt_scatter(const unsigned *keys, const unsigned *vals,
                                                              unsigned *keys_out, unsigned *vals_out, const int *hist,
                                                              int stride, const int *rowtot, const int *ctrl,
                                                              int shift) {
  rt_after_previous();
  __shared__ unsigned skey[RT_PB], sval[RT_PB]; // the block's pairs, sorted by digit
  __shared__ unsigned short srank[RT_PB];       // a pair's rank within its (warp, digit)
  __shared__ int wc[RT_PT / 32][RT_BUCKETS];    // counts, then first slots, per (warp, digit)
  __shared__ int digit_start[RT_BUCKETS];    // global: where the digit's pairs start
  __shared__ int local_start[RT_BUCKETS];    // in the block: the digit's first slot
  __shared__ int out_base[RT_BUCKETS];       // slot k of digit d goes to out_base[d] + k
  __shared__ int low_total;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int nblocks = ctrl[RT_NBLOCKS], pairs = ctrl[RT_PAIRS];
  if (blockIdx.x >= nblocks) return; // uniform; nblocks = 0 on overflow
  if (warp == 0) { // digit starts: exclusive scan of the 64 row sums, two a lane
    const int a = rowtot[2 * lane], b = rowtot[2 * lane + 1];
    const int incl = rt_warp_inclusive(a + b);
    digit_start[2 * lane] = incl - a - b;
    digit_start[2 * lane + 1] = incl - b;
  }
  const unsigned below = (1u << lane) - 1u;
  for (int e = blockIdx.x; e < nblocks; e += gridDim.x) {
    for (int k = t; k < (RT_PT / 32) * RT_BUCKETS; k += RT_PT) wc[k / RT_BUCKETS][k % RT_BUCKETS] = 0;
    __syncthreads();
    const int first = e * RT_PB + warp * (32 * RT_IPT) + lane;
    unsigned key[RT_IPT], val[RT_IPT];
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int q = first + 32 * j;
      key[j] = q < pairs ? keys[q] : 0u;
      val[j] = q < pairs ? vals[q] : 0u;
    }
    // Sweep 1: each pair's rank among the earlier pairs of its warp with its
    // digit (kept in shared memory, at the pair's place), and the counts per
    // (warp, digit).
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int valid = first + 32 * j < pairs, d = (int)(key[j] >> shift) & (RT_BUCKETS - 1);
      unsigned peers = __ballot_sync(RT_FULL, valid);
#pragma unroll
      for (int bit = 0; bit < RT_DIGIT; bit++) {
        const unsigned set = __ballot_sync(RT_FULL, (d >> bit) & 1);
        peers &= (d >> bit) & 1 ? set : ~set;
      }
      const int before = valid ? wc[warp][d] : 0, r = __popc(peers & below);
      __syncwarp();
      srank[warp * (32 * RT_IPT) + 32 * j + lane] = (unsigned short)(before + r);
      if (valid && r == 0) wc[warp][d] = before + __popc(peers); // the lowest lane of the group
      __syncwarp();
    }
    __syncthreads();
    if (t < RT_BUCKETS) { // digit t: its total; an exclusive scan over the digits (two warps)
      int sum = 0;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) sum += wc[k][t];
      const int incl = rt_warp_inclusive(sum);
      local_start[t] = incl - sum;
      if (t == 31) low_total = incl; // digits 0 .. 31
    }
    __syncthreads();
    if (t < RT_BUCKETS) { // digit t's first slot, each warp's first slot, and the global offset
      int at = local_start[t] + (t >= 32 ? low_total : 0);
      out_base[t] = digit_start[t] + hist[t * stride + e] - at;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) {
        const int c = wc[k][t];
        wc[k][t] = at;
        at += c;
      }
    }
    __syncthreads();
    // Sweep 2: each pair to its slot in shared memory.
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      if (first + 32 * j >= pairs) continue;
      const int slot = wc[warp][(key[j] >> shift) & (RT_BUCKETS - 1)] + srank[warp * (32 * RT_IPT) + 32 * j + lane];
      skey[slot] = key[j], sval[slot] = val[j];
    }
    // FAULT (GPU tier): no barrier between sweep 2's writes to skey/sval and the copy-out
    // that reads other threads' slots: a shared-memory race racecheck must report.
    // Copy out: slot k holds digit d's (k - first slot of d)-th pair of the block.
    const int count = min(RT_PB, pairs - e * RT_PB);
    for (int k = t; k < count; k += RT_PT) {
      const unsigned key_k = skey[k];
      const int pos = out_base[(key_k >> shift) & (RT_BUCKETS - 1)] + k;
      keys_out[pos] = key_k;
      vals_out[pos] = sval[k];
    }
    __syncthreads(); // shared state is read before the next pair block rewrites it
  }
}

// ---------------------------------------------------------------- 4c. rt_hist
// Pair block e (looping as in rt_emit): the counts of digit (key >> shift) & 63
// among its pairs, one shared histogram per warp (few conflicts), summed into
// hist[d * stride + e]. Cost: 4 bytes read a pair.
static __global__ void __launch_bounds__(RT_PT) rt_hist(const unsigned *keys, int *hist, int stride,
                                                        const int *ctrl, int shift) {
  rt_after_previous();
  __shared__ int wc[RT_PT / 32][RT_BUCKETS];
  const int t = threadIdx.x, warp = t >> 5;
  const int nblocks = ctrl[RT_NBLOCKS], pairs = ctrl[RT_PAIRS];
  for (int e = blockIdx.x; e < nblocks; e += gridDim.x) {
    for (int k = t; k < (RT_PT / 32) * RT_BUCKETS; k += RT_PT) wc[k / RT_BUCKETS][k % RT_BUCKETS] = 0;
    __syncthreads();
    unsigned key[RT_IPT];
#pragma unroll
    for (int j = 0; j < RT_IPT; j++) {
      const int q = e * RT_PB + j * RT_PT + t;
      key[j] = q < pairs ? keys[q] : RT_FULL;
    }
#pragma unroll
    for (int j = 0; j < RT_IPT; j++)
      if (key[j] != RT_FULL) atomicAdd(&wc[warp][(key[j] >> shift) & (RT_BUCKETS - 1)], 1);
    __syncthreads();
    if (t < RT_BUCKETS) {
      int sum = 0;
#pragma unroll
      for (int k = 0; k < RT_PT / 32; k++) sum += wc[k][t];
      hist[t * stride + e] = sum;
    }
    __syncthreads(); // read before the next pair block zeroes it
  }
}

// ---------------------------------------------------------------- 5. rt_bounds
// Thread q (striding over 0 .. P, four positions in flight): start[u] = q for
// every tile u with key[q - 1] < u <= key[q] (key[-1] = -1, key[P] = tiles):
// start[u] is the first pair of tile u, whose list is [start[u], start[u + 1]).
// Cost: 4 bytes read a pair, 4 bytes written a tile.
static __global__ void __launch_bounds__(256) rt_bounds(const unsigned *keys, const int *ctrl, int tiles, int *start) {
  rt_after_previous();
  const int pairs = ctrl[RT_PAIRS], all = gridDim.x * blockDim.x;
  for (int q0 = blockIdx.x * blockDim.x + threadIdx.x; q0 <= pairs; q0 += 4 * all) {
    int lo[4], hi[4];
#pragma unroll
    for (int m = 0; m < 4; m++) {
      const int q = q0 + m * all;
      hi[m] = q < pairs ? (int)keys[q] : tiles;
      lo[m] = q > 0 && q <= pairs ? (int)keys[q - 1] : -1;
    }
#pragma unroll
    for (int m = 0; m < 4; m++) {
      const int q = q0 + m * all;
      if (q > pairs) break;
      for (int u = lo[m] + 1; u <= hi[m]; u++) start[u] = q;
    }
  }
}
