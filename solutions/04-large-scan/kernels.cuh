// kernels.cuh (solution, assignment 04; layer: kernels): the single-pass
// kernels (decoupled_lookback, lookback_acqrel, find_repeats) and the
// one-tile kernels of the multi-pass versions (hierarchical,
// reduce_then_scan). They put together the layers below: tile I/O
// (tile_io.cuh), the block scan (block_scan.cuh), the look-back
// (lookback.cuh) and find_repeats's flags (repeats.cuh).
#ifndef LS_KERNELS_CUH
#define LS_KERNELS_CUH

#include "block_scan.cuh"
#include "lookback.cuh"
#include "policy.cuh"
#include "repeats.cuh"
#include "tile_io.cuh"

// What a single-pass kernel computes: a scan of the input, or find_repeats.
enum ls_op { LS_SCAN, LS_REPEATS };

// Where round `round`'s scan results wait for their prefix: one of the two
// tile buffers of the kernel's dynamic shared memory, by the round's parity.
static __device__ __forceinline__ uint4 *ls_results(uint4 *s_res, int round) {
  return s_res + (round & 1) * (LS_TILE / 4);
}

// The single-pass kernels. Each block takes tickets until they run out (the
// grid is what fits on the GPU at once: large_scan.cu, ls_grid) and works on
// two tiles at a time: `tile`, whose loads are in flight, and `held`, the
// tile before it, whose results wait for the look-back. Each round:
//   1. thread 0 takes the next ticket while the tile's loads are in flight;
//   2. the tile is scanned in the block (LS_VECS warp scans side by side, one
//      barrier), and thread 0 publishes its sum at once: publishing never
//      waits on another tile;
//   3. the tile's results (but for the earlier tiles' prefix) go to shared
//      memory, each where its own thread reads it back, so no barrier is
//      needed; for find_repeats its flags and offsets stay in registers;
//   4. the next tile's loads are issued into the registers the tile used,
//      and stay in flight during 5 and 6;
//   5. the block looks back for `held`, whose sum went out a round ago
//      (lookback.cuh, ls_gap_part): every thread reads one status slot of
//      the tiles between the block's previous tile and `held`, and the
//      warps' parts meet in shared memory (the round's second barrier);
//   6. held's results plus its prefix (the previous tile's inclusive prefix
//      plus the gap) go out, and the tile becomes `held`.
// Were a block to look back on a tile as soon as it had published its sum,
// the tile's predecessors could still be loading. Per tile: LS_TILE elements
// read once (16-byte loads); for a scan, LS_TILE written once; one status
// slot written; the look-back reads about one slot per block on the GPU.
//
// Shared memory: the results' two buffers alternate by the round's parity,
// as does s_gap, so a round's writes never meet the previous round's reads:
// both are ordered by the barrier between them.
static __device__ __forceinline__ void ls_lookback_tiles(int op, int layout, const unsigned *in, unsigned *out,
                                                         unsigned *count, size_t n, unsigned tiles, unsigned span,
                                                         void *work) {
  uint4 *s_res = ls_dynamic; // LS_SMEM_SCAN bytes: round r's results at ls_results(s_res, r)
  __shared__ unsigned s_warp[LS_WARPS], s_first, s_next;
  __shared__ ls_tickets s_tickets;
  __shared__ unsigned s_gap[2][LS_WARPS]; // the warps' parts of the gap's sum, by the round's parity
  unsigned anchor_next = 0, anchor_incl = 0; // the tile after the block's last held one, and that one's inclusive prefix
  ls_header *h = (ls_header *)work;
  unsigned *slots = (unsigned *)(h + 1);
  int t = threadIdx.x, round = 0;
  if (t == 0) s_first = ls_first_ticket(h, span, &s_tickets);
  __syncthreads(); // the first tile and the call's tickets are in shared memory before anyone reads them
  unsigned tile = s_first, epoch = s_tickets.epoch;
  unsigned held = tiles, held_sum = 0, held_flags = 0; // none held yet
  unsigned held_off[LS_VECS];                          // find_repeats: held's vectors' offsets
  uint4 v[LS_VECS];                                    // the tile's loads
  unsigned after = 0, *want_after = op == LS_REPEATS ? &after : NULL;
  if (tile < tiles) ls_fetch_warp(in, n, tile, v, want_after);
  while (tile < tiles || held < tiles) {
    unsigned next = tiles, sum = 0, flags = 0, off[LS_VECS], cnt[LS_VECS];
    if (tile < tiles) {
      if (t == 0) s_next = ls_next_ticket(h, &s_tickets); // 1
      size_t base = (size_t)tile * LS_TILE;
      if (op == LS_SCAN) { // 2
#pragma unroll
        for (int j = 0; j < LS_VECS; j++) cnt[j] = ls_vector_sum(v[j]);
      } else {
        flags = ls_warp_flags(v, after, base, n, cnt);
      }
      ls_warp_offsets(cnt, s_warp, off, &sum); // its barrier also publishes s_next
      next = s_next;
      if (t == 0) ls_publish_aggregate(layout, slots, tile, epoch, sum);
      if (op == LS_SCAN) // 3
#pragma unroll
        for (int j = 0; j < LS_VECS; j++) ls_results(s_res, round)[ls_warp_vec(j)] = ls_vector_exclusive(v[j], off[j]);
      if (next < tiles) ls_fetch_warp(in, n, next, v, want_after); // 4
    }
    if (held < tiles) { // 5
      unsigned part = ls_warp_sum(ls_gap_part(layout, slots, anchor_next, held, epoch));
      if ((t & 31) == 0) s_gap[round & 1][t >> 5] = part;
    }
    __syncthreads(); // held's gap is in shared memory before anyone reads it
    if (held < tiles) { // 6
      size_t base = (size_t)held * LS_TILE;
      int valid = ls_valid(n, base);
      unsigned prefix = anchor_incl;
#pragma unroll
      for (int w = 0; w < LS_WARPS; w++) prefix += s_gap[round & 1][w];
      anchor_next = held + 1, anchor_incl = prefix + held_sum;
      if (op == LS_REPEATS && held == tiles - 1 && t == 0) *count = prefix + held_sum; // the last tile knows the total
      if (op == LS_SCAN) {
#pragma unroll
        for (int j = 0; j < LS_VECS; j++)
          ls_store_vector(out, base, valid, ls_warp_vec(j), ls_results(s_res, round - 1)[ls_warp_vec(j)], prefix);
      } else {
#pragma unroll
        for (int j = 0; j < LS_VECS; j++)
          ls_put_repeats(out, prefix + held_off[j], (held_flags >> (4 * j)) & 15u, (unsigned)base + 4 * ls_warp_vec(j));
      }
    }
    held = tile, held_sum = sum, held_flags = flags;
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) held_off[j] = off[j];
    tile = next, round++;
  }
}

// Few enough registers a thread that LS_MIN_BLOCKS blocks of LS_THREADS fit on each SM.
#define LS_BOUNDS __launch_bounds__(LS_THREADS, LS_MIN_BLOCKS)

static __global__ void LS_BOUNDS ls_scan_packed(const unsigned *in, unsigned *out, size_t n, unsigned tiles,
                                                unsigned span, void *work) {
  ls_lookback_tiles(LS_SCAN, LS_PACKED, in, out, NULL, n, tiles, span, work);
}
static __global__ void LS_BOUNDS ls_scan_acq_rel(const unsigned *in, unsigned *out, size_t n, unsigned tiles,
                                                 unsigned span, void *work) {
  ls_lookback_tiles(LS_SCAN, LS_ACQ_REL, in, out, NULL, n, tiles, span, work);
}
static __global__ void LS_BOUNDS ls_repeats(const unsigned *in, unsigned *indices, unsigned *count, size_t n,
                                            unsigned tiles, unsigned span, void *work) {
  ls_lookback_tiles(LS_REPEATS, LS_PACKED, in, indices, count, n, tiles, span, work);
}

// Block b scans tile b on its own, adds carry[b] when carry is given, and
// writes the tile's sum to sums[b] when sums is given: one tile read, one
// written.
static __global__ void LS_BOUNDS ls_scan_tiles(const unsigned *in, unsigned *out, size_t n, unsigned *sums,
                                               const unsigned *carry) {
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes
  __shared__ unsigned s_warp[LS_WARPS];
  size_t base = (size_t)blockIdx.x * LS_TILE;
  int valid = ls_valid(n, base);
  uint4 v[LS_VECS];
  ls_load_tile(in, base, valid, s_vec, v);
  unsigned mine = ls_thread_total(v);
  unsigned total, before = ls_block_exclusive(mine, s_warp, &total);
  if (sums && threadIdx.x == 0) sums[blockIdx.x] = total;
  ls_thread_exclusive(v, before + (carry ? carry[blockIdx.x] : 0));
  ls_store_tile(out, base, valid, s_vec, v);
}

// Block b writes the sum of tile b to sums[b]: one tile read, 4 bytes written.
static __global__ void LS_BOUNDS ls_reduce_tiles(const unsigned *in, size_t n, unsigned *sums) {
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes
  __shared__ unsigned s_warp[LS_WARPS];
  size_t base = (size_t)blockIdx.x * LS_TILE;
  int valid = ls_valid(n, base);
  uint4 v[LS_VECS];
  ls_load_tile(in, base, valid, s_vec, v); // the transpose is not needed for a sum, but keeps one load path
  unsigned mine = ls_thread_total(v);
  unsigned total;
  ls_block_exclusive(mine, s_warp, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// out[i] += carry[i / LS_TILE], four elements a thread (16-byte accesses).
static __global__ void ls_add_carry(unsigned *out, size_t n, const unsigned *carry) {
  size_t v = (size_t)blockIdx.x * blockDim.x + threadIdx.x, e = v * 4;
  if (e >= n) return;
  unsigned c = carry[e / LS_TILE]; // 4 divides LS_TILE: the four share a tile
  if (e + 4 <= n) {
    uint4 *p = (uint4 *)out + v;
    uint4 a = *p;
    a.x += c, a.y += c, a.z += c, a.w += c;
    *p = a;
  } else {
    for (size_t i = e; i < n; i++) out[i] += c;
  }
}

#endif
