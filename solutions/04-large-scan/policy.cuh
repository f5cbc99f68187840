// policy.cuh (solution, assignment 04; layer: policy): the shape of a tile,
// the one place where the scans' tuning lives. Every other file of the
// solution reads these constants; none has a switch of its own.
//
// 384 threads x 32 elements: a tile of 12288 unsigned ints (48 KiB), two
// blocks an SM. Thirty-two elements a thread are eight 16-byte loads in flight
// per thread, and with the next tile's loads issued before the look-back
// (kernels.cuh) that covers DRAM latency on an H100. A look-back is paid once
// a tile, so the tiles are as big as the registers allow: the held tile's
// results wait in shared memory, not in registers. Of the shapes measured on
// the H100 (512 x 16, 512 x 20, 512 x 24, 512 x 28, 256 x 16 at 4 blocks an
// SM, ...) this one was the fastest; with the look-back ending at the block's
// own previous tile (lookback.cuh) the scan takes 0.99-1.00x the time of a
// device-to-device copy of the same bytes.
//
// The experiments that lost (other ways of holding tiles, look-backs to the
// nearest inclusive prefix, evict-first accesses, one block a tile, ...) are
// not here: docs/tuning-04.md names the commits where each can be built, and
// assignments/04-large-scan/research/tune.sh times other values of the three knobs below,
// which it sets from the compiler's command line (-DLS_CFG_THREADS=512 ...).
#ifndef LS_POLICY_CUH
#define LS_POLICY_CUH

#ifndef LS_CFG_THREADS
#define LS_CFG_THREADS 384 // threads a block: a multiple of 32
#endif
#ifndef LS_CFG_ITEMS
#define LS_CFG_ITEMS 32 // elements a thread: a multiple of 4, at most 32 (find_repeats's flags are one word)
#endif
#ifndef LS_CFG_MIN_BLOCKS
#define LS_CFG_MIN_BLOCKS 2 // blocks an SM must fit (__launch_bounds__), which caps the registers a thread
#endif

enum {
  LS_THREADS = LS_CFG_THREADS,
  LS_ITEMS = LS_CFG_ITEMS,
  LS_MIN_BLOCKS = LS_CFG_MIN_BLOCKS,
  LS_TILE = LS_THREADS * LS_ITEMS, // elements a tile
  LS_VECS = LS_ITEMS / 4,          // 16-byte vectors a thread owns
  LS_WARPS = LS_THREADS / 32,
  // Dynamic shared memory of the kernels, in bytes: a scan's single-pass
  // kernel keeps two tiles of results (this round's and the held tile's), the
  // one-tile kernels one tile. Past 48 KiB a kernel must ask for it first
  // (large_scan.cu, ls_allow_smem).
  LS_SMEM_SCAN = 2 * LS_TILE * 4,
  LS_SMEM_TILE = LS_TILE * 4,
};
static_assert(LS_THREADS % 32 == 0, "a block is whole warps");
static_assert(LS_ITEMS % 4 == 0 && LS_ITEMS <= 32, "a thread owns whole vectors, and its flags fit one word");

#endif
