// large_max_scan.cu: lecture 05's three ways to scan an array of any size,
// on a running maximum (inclusive max-scan of unsigned ints), each timed
// against a device-to-device copy of the same bytes and checked against the
// CPU reference:
//
//   copy               cudaMemcpyAsync of the 4n bytes: the ceiling (reads n, writes n)
//   hierarchical       scan each tile and keep its max; scan the maxima (the same
//                      function, recursively); take the max with the carry:
//                      3 launches per level; reads 2n, writes 2n
//   reduce_then_scan   reduce each tile to its max; scan the maxima; scan each
//                      tile again from its carry: reads 2n, writes n
//   chained_lookback   one kernel: tile ids from an atomic counter, each tile
//                      publishes its max (aggregate) at once and its inclusive
//                      prefix when it knows it; warp 0 looks back over 32
//                      predecessors at a time. Flag and value in separate words,
//                      ordered by st.release.gpu / ld.acquire.gpu. Reads n, writes n
//                      (plus a cudaMemsetAsync of the status words per call)
//
// The tiles are large_tile.h's (1024 elements, 256 threads). Prints CSV:
// n, variant, median us, GB/s of the 8n bytes a scan must move, time over the
// copy's, mismatches.
//
//   make lectures && build/lectures/large_max_scan     (needs a GPU; prints CSV)
#include "large_tile.h"
#include "scope_ops.h"

// ---------------------------------------------------------------- tile kernels

// One block per tile: out = the tile's inclusive max-scan, taken with
// carry[tile - 1] when carry is given (the max of every earlier tile);
// totals[tile] = the tile's own max when totals is given.
extern "C" __global__ void scan_tiles(const unsigned *in, unsigned *out, size_t n, unsigned *totals, const unsigned *carry) {
  const size_t tile = blockIdx.x;
  uint4 v = lt_load(in, n, tile);
  const unsigned tile_max = lt_block_scan(&v);
  if (carry && tile > 0) v = lt_max4(v, carry[tile - 1]);
  lt_store(out, n, tile, v);
  if (totals && threadIdx.x == 0) totals[tile] = tile_max;
}

// One block per tile from the second on: out[i] = max(out[i], running[tile - 1]).
// Launched on out + LT_TILE, so its block b is tile b + 1.
extern "C" __global__ void add_carry(unsigned *out, size_t n, const unsigned *running) {
  const size_t tile = blockIdx.x;
  lt_store(out, n, tile, lt_max4(lt_load(out, n, tile), running[tile]));
}

// One block per tile: totals[tile] = the tile's max. Reads the tile, writes one word.
extern "C" __global__ void reduce_tiles(const unsigned *in, size_t n, unsigned *totals) {
  const unsigned m = lt_tile_max(in, n, blockIdx.x);
  if (threadIdx.x == 0) totals[blockIdx.x] = m;
}

// ---------------------------------------------------------------- hierarchical, reduce-then-scan

// Kernel boundaries are what order these steps: every block of one launch has
// finished, and its writes are visible, before the next launch on the stream starts.
static void hierarchical(const unsigned *in, unsigned *out, size_t n, void *work) {
  const size_t tiles = lt_tiles(n);
  unsigned *totals = (unsigned *)work; // this level's tile maxima; the next level's work follows, 16-byte aligned
  if (tiles == 0) return;
  scan_tiles<<<(unsigned)tiles, LT_THREADS>>>(in, out, n, tiles > 1 ? totals : NULL, NULL);
  EX_CHECK(cudaGetLastError());
  if (tiles == 1) return;
  hierarchical(totals, totals, tiles, totals + lt_next4(tiles)); // in place: each thread reads its 4 before writing them
  add_carry<<<(unsigned)(tiles - 1), LT_THREADS>>>(out + LT_TILE, n - LT_TILE, totals);
  EX_CHECK(cudaGetLastError());
}

static void reduce_then_scan(const unsigned *in, unsigned *out, size_t n, void *work) {
  const size_t tiles = lt_tiles(n);
  unsigned *totals = (unsigned *)work;
  if (tiles == 0) return;
  reduce_tiles<<<(unsigned)tiles, LT_THREADS>>>(in, n, totals);
  EX_CHECK(cudaGetLastError());
  hierarchical(totals, totals, tiles, totals + lt_next4(tiles)); // the maxima are few: any scan will do
  scan_tiles<<<(unsigned)tiles, LT_THREADS>>>(in, out, n, NULL, totals);
  EX_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- chained scan, decoupled look-back

// A tile's status word; the value it vouches for lives in aggregate[] or prefix[].
enum tile_status {
  TILE_EMPTY = 0,     // nothing published yet (what cudaMemsetAsync leaves)
  TILE_AGGREGATE = 1, // aggregate[t] holds the max of tile t alone
  TILE_PREFIX = 2,    // prefix[t] holds the max of tiles 0..t
};

enum { SPIN_LIMIT = 1 << 20 }; // reads of one EMPTY status before giving up (a bug, not a wait)

// Set by a look-back that gave up; a word of its own, since the other
// variants use the whole workspace for their tile maxima.
__device__ unsigned lookback_stuck;

// The workspace of the chained scan: one counter, then three words per tile.
typedef struct chain {
  unsigned *next_tile, *status, *aggregate, *prefix;
} chain;

static chain chain_of(void *work, size_t tiles) {
  unsigned *w = (unsigned *)work;
  return (chain){w, w + 1, w + 1 + tiles, w + 1 + 2 * tiles};
}

// Warp 0 of tile `tile` (> 0): the max of tiles 0..tile-1. Lane l reads the
// status of tile end - 32 + l, so one round reads 32 predecessors at once;
// a round ends the look-back if some lane saw a PREFIX, and otherwise moves 32
// tiles back. A lane that sees EMPTY reads again: that tile took its id before
// this one, so its block is running and will publish.
static __device__ unsigned look_back(size_t tile, chain c) {
  const int lane = threadIdx.x;
  unsigned carry = 0;
  for (long long end = (long long)tile;; end -= 32) {
    const long long t = end - 32 + lane;
    unsigned status = TILE_PREFIX, value = 0; // before tile 0: a prefix of 0, the identity
    if (t >= 0) {
      // acquire: the loads of aggregate[t] / prefix[t] below are made after this
      // load, so they see what tile t stored before its release of this status
#pragma unroll 1
      for (int spins = 0; (status = ld_acquire_gpu(&c.status[t])) == TILE_EMPTY;)
        if (++spins == SPIN_LIMIT) {
          atomicExch(&lookback_stuck, 1u); // reported by the host; the result is then wrong, never hung
          status = TILE_PREFIX;
          break;
        }
      value = status == TILE_PREFIX ? c.prefix[t] : c.aggregate[t];
    }
    const unsigned prefixes = __ballot_sync(LT_FULL, status == TILE_PREFIX);
    const int from = prefixes ? 31 - __clz(prefixes) : 0; // the nearest prefix, and the aggregates after it
    carry = max(carry, lt_warp_max(lane >= from ? value : 0));
    if (prefixes) return carry;
  }
}

extern "C" __global__ void chained_scan(const unsigned *in, unsigned *out, size_t n, chain c) {
  __shared__ unsigned tile_sh, carry_sh;
  // The tile id is the order in which blocks start, not blockIdx.x: every
  // smaller id belongs to a block that has already started, so the look-back
  // never waits for a block that might not run until this one ends.
  if (threadIdx.x == 0) tile_sh = atomicAdd(c.next_tile, 1u);
  __syncthreads();
  const size_t tile = tile_sh;
  uint4 v = lt_load(in, n, tile);
  const unsigned tile_max = lt_block_scan(&v);
  if (threadIdx.x < 32) {
    unsigned carry = 0;
    if (tile > 0) {
      if (threadIdx.x == 0) {
        c.aggregate[tile] = tile_max;
        st_release_gpu(&c.status[tile], TILE_AGGREGATE); // release: aggregate[tile] is stored before it
      }
      carry = look_back(tile, c);
    }
    if (threadIdx.x == 0) {
      c.prefix[tile] = max(carry, tile_max);
      st_release_gpu(&c.status[tile], TILE_PREFIX); // release: prefix[tile] is stored before it
      carry_sh = carry;
    }
  }
  __syncthreads(); // carry_sh is written
  lt_store(out, n, tile, lt_max4(v, carry_sh));
}

static void chained_lookback(const unsigned *in, unsigned *out, size_t n, void *work) {
  const size_t tiles = lt_tiles(n);
  if (tiles == 0) return;
  const chain c = chain_of(work, tiles);
  // the counter and the status words start at 0 (EMPTY) for every call; lookback_stuck is kept
  EX_CHECK(cudaMemsetAsync(c.next_tile, 0, sizeof(unsigned)));
  EX_CHECK(cudaMemsetAsync(c.status, 0, tiles * sizeof(unsigned)));
  chained_scan<<<(unsigned)tiles, LT_THREADS>>>(in, out, n, c);
  EX_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- the table, main

static const lt_variant VARIANTS[] = {
    {"copy", lt_copy, lt_check_nothing}, // first: the others are compared with it
    {"hierarchical", hierarchical, lt_check_scan},
    {"reduce_then_scan", reduce_then_scan, lt_check_scan},
    {"chained_lookback", chained_lookback, lt_check_scan},
};
#define N_VARIANTS (sizeof VARIANTS / sizeof *VARIANTS)

static const size_t SIZES[] = {1000, 1u << 16, 1u << 20, (1u << 24) + 3, 1u << 26};
#define N_SIZES (sizeof SIZES / sizeof *SIZES)

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "three large max-scans against a copy");
  ex_print_gpu("lecture 05", "large_max_scan");
  const size_t n_max = SIZES[N_SIZES - 1], tiles_max = lt_tiles(n_max);
  lt_data d = lt_data_make(n_max);
  unsigned *out = (unsigned *)ex_dev_zeros(n_max * sizeof *out);
  void *work = ex_dev_zeros((3 * tiles_max + 64) * sizeof(unsigned)); // 2 tiles_max for the levels, 3 for the chain

  printf("# tiles of %d elements, %d threads; median of %d runs; GB/s counts 8 bytes per element\n", LT_TILE,
         LT_THREADS, LT_REPS);
  const int failed = lt_sweep(SIZES, N_SIZES, VARIANTS, N_VARIANTS, &d, out, work);
  unsigned stuck = 0;
  EX_CHECK(cudaMemcpyFromSymbol(&stuck, lookback_stuck, sizeof stuck));
  if (stuck) fprintf(stderr, "%s:%d: a look-back read an EMPTY status %d times in a row\n", __FILE__, __LINE__, SPIN_LIMIT);
  EX_CHECK(cudaFree(out));
  EX_CHECK(cudaFree(work));
  lt_data_free(&d);
  return failed || stuck ? 1 : 0;
}
