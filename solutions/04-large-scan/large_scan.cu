// large_scan.cu (solution, assignment 04): device-wide exclusive scans of up to
// 2^28 unsigned ints, and find_repeats as a stream compaction on the same scan.
//
// Versions (the harness's variant table names them by these slugs):
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
// Layers, as in CUB: tile loading and storing (16-byte vectors, coalesced: in
// the single-pass kernels each warp owns a consecutive part of the tile, the
// others go through shared memory), the block scan (warp shuffles, then the
// warps' totals), the look-back (lookback.cuh), the kernels, and the
// host entry points, which only launch and return errors.
#include <stdint.h>

#include "large_scan.h"
#include "lookback.cuh" // the tile status, its memory accesses and the look-back

// ---------------------------------------------------------------- tile shape

// 384 threads x 32 elements: a tile of 12288 (48 KiB), two blocks an SM.
// Thirty-two elements a thread are eight 16-byte loads in flight per thread,
// and with the next tile's loads issued before the look-back (below) that
// covers DRAM latency on an H100. A look-back is paid once a tile, so the
// tiles are as big as the registers allow, with the held tile's results in
// shared memory (LS_CFG_HELD_SMEM). Of the shapes measured (512 x 16 through
// a transpose, 512 x 20, 512 x 24, 512 x 28, 256 x 16 with 4 blocks an SM,
// ...: tuning-04-h100.txt, commits 10a9872..60b94ce and bc21e54..84253fd,
// 2026-11-25) this was the fastest, 1.02-1.06x a copy's time with the
// look-back to the nearest PREFIX; with the look-back to the block's own
// previous tile (LS_CFG_AHEAD, commits 5fc7b4b..935ff1b, 2026-11-26)
// 0.99-1.00x.
//
// The shape and the look-back's pause can be changed from the compiler's
// command line (-DLS_CFG_THREADS=128 ...) for tuning experiments; the defaults
// are the shape described here.
#ifndef LS_CFG_THREADS
#define LS_CFG_THREADS 384 // threads a block: a multiple of 32
#endif
#ifndef LS_CFG_ITEMS
#define LS_CFG_ITEMS 32 // elements a thread: a multiple of 4, at most 32
#endif
#ifndef LS_CFG_MIN_BLOCKS
#define LS_CFG_MIN_BLOCKS 2 // blocks an SM must fit (__launch_bounds__)
#endif

// Two more experiments change where the single-pass kernels keep the tiles
// they hold (the defaults are the kernels described below):
//   LS_CFG_RING 1   the tile buffers go to dynamic shared memory, sized at the
//                   launch, so a tile may exceed the 48 KiB that static shared
//                   memory allows, and a held tile's results wait there rather
//                   than in registers: a thread's registers then hold one
//                   tile's loads, not two tiles, so 512 x 24, 512 x 32 and
//                   1024 x 16 fit in 64 registers. The other kernels' tiles
//                   move to dynamic shared memory too (same size, one buffer).
//   LS_CFG_DEPTH D  (with LS_CFG_RING 1) a block looks back on a tile D rounds
//                   after publishing its sum, not one, and holds D tiles in a
//                   ring of D + 1 buffers: the look-back's latency is paid
//                   once a tile either way, and a deeper ring gives the
//                   predecessors more time to publish before anyone waits.
#ifndef LS_CFG_RING
#define LS_CFG_RING 0
#endif
#ifndef LS_CFG_WARPSCAN // the single-pass kernels without the transpose (0: with it, as before e519b7d, 2026-11-25)
#define LS_CFG_WARPSCAN (!LS_CFG_RING)
#endif
#if LS_CFG_WARPSCAN && LS_CFG_RING
#error "LS_CFG_WARPSCAN 1 has no ring of tiles: not with LS_CFG_RING 1"
#endif
// LS_CFG_HELD_SMEM 1 (the default with LS_CFG_WARPSCAN 1): a scan's results
// wait for their prefix in a double buffer of dynamic shared memory, not in
// registers, so that bigger tiles fit (384 x 32 or 512 x 24 at two blocks an
// SM); the other kernels' tiles move to dynamic shared memory too.
#ifndef LS_CFG_HELD_SMEM
#define LS_CFG_HELD_SMEM LS_CFG_WARPSCAN
#endif
#if LS_CFG_HELD_SMEM && !LS_CFG_WARPSCAN
#error "LS_CFG_HELD_SMEM 1 needs LS_CFG_WARPSCAN 1"
#endif
// LS_CFG_AHEAD 1 (the default with LS_CFG_WARPSCAN 1, since 5181187,
// 2026-11-26): a look-back ends at the block's own previous tile (ls_gap_part
// in lookback.cuh); 0: at the nearest PREFIX, one warp reading windows of 32
// (ls_look_back), as before 5181187 and in the other kernels.
#ifndef LS_CFG_AHEAD
#define LS_CFG_AHEAD LS_CFG_WARPSCAN
#endif
#if LS_CFG_AHEAD && !LS_CFG_WARPSCAN
#error "LS_CFG_AHEAD 1 needs LS_CFG_WARPSCAN 1"
#endif
#define LS_DYNAMIC_SMEM (LS_CFG_RING || LS_CFG_HELD_SMEM) // some kernels take dynamic shared memory
#ifndef LS_CFG_DEPTH
#define LS_CFG_DEPTH 1 // rounds between publishing a tile's sum and looking back on it
#endif
#if LS_CFG_DEPTH < 1 || (LS_CFG_DEPTH > 1 && !LS_CFG_RING)
#error "LS_CFG_DEPTH is 1, or more with LS_CFG_RING 1"
#endif
enum {
  LS_THREADS = LS_CFG_THREADS,
  LS_ITEMS = LS_CFG_ITEMS,
  LS_TILE = LS_THREADS * LS_ITEMS,
  LS_VECS = LS_ITEMS / 4, // uint4 vectors a thread owns
  LS_WARPS = LS_THREADS / 32,
  LS_DEPTH = LS_CFG_DEPTH,
  LS_SLOTS = LS_DEPTH + 1, // the ring's slots: the tiles held and this round's
  // Dynamic shared memory of each kernel, in bytes (none without the ring or
  // LS_CFG_HELD_SMEM): the scan's ring of tiles, or its two result buffers;
  // with the ring, find_repeats's one tile (its held tiles are flags: a
  // thread's flags and count per slot); the other kernels' one tile.
  LS_SMEM_SCAN = LS_CFG_RING ? LS_SLOTS * LS_TILE * 4 : LS_CFG_HELD_SMEM ? 2 * LS_TILE * 4 : 0,
  LS_SMEM_REPEATS = LS_CFG_RING ? LS_TILE * 4 + 2 * LS_SLOTS * LS_THREADS * 4 : 0,
  LS_SMEM_TILE = LS_DYNAMIC_SMEM ? LS_TILE * 4 : 0,
};

// Returns the first CUDA error of a call or a launch to the caller.
#define LS_TRY(call)                                                                                                   \
  do {                                                                                                                 \
    cudaError_t ls_err_ = (call);                                                                                      \
    if (ls_err_ != cudaSuccess) return ls_err_;                                                                        \
  } while (0)

static size_t ls_tiles(size_t n) { return (n + LS_TILE - 1) / LS_TILE; }

// ---------------------------------------------------------------- loading and storing a tile

// Shared-memory position of vector c (0 .. LS_TILE / 4 - 1) of a tile. Loads write vector
// j * LS_THREADS + t (8 consecutive threads: 8 consecutive vectors); the scan reads
// vectors 4t .. 4t + 3. A 16-byte access is served 8 threads at a time, so 8
// threads must fall in 8 different 16-byte bank groups: XOR-ing c's low three
// bits with its bits 3..5 permutes each aligned group of 8 (the loads stay
// conflict-free) and sends the vectors 4t + j of 8 consecutive threads to 8
// different groups.
static __device__ __forceinline__ int ls_swizzle(int c) { return c ^ ((c >> 3) & 7); }

// Full tiles' 16-byte accesses. LS_CFG_STREAM 1 (a tuning experiment) marks
// them evict-first (__ldcs, __stcs): each byte is touched once, so the tiles
// need not stay in the caches that the look-back's status words use.
// LS_CFG_STREAM 2 marks the loads alone. Neither was faster on the H100: what
// evict-first loads gain at 2^24 in the judge's duels is the write-back of
// the runner's 0xA5 fill, whose dirty lines they leave in L2, and from a clean
// L2 they are slower (tuning-04-h100.txt, commits fc27bef..8e043a9,
// 2026-11-26).
#ifndef LS_CFG_STREAM
#define LS_CFG_STREAM 0
#endif
#if LS_CFG_STREAM == 1
#define LS_LOAD(p) __ldcs(p)
#define LS_STORE(p, x) __stcs((p), (x))
#elif LS_CFG_STREAM == 2 // the loads alone
#define LS_LOAD(p) __ldcs(p)
#define LS_STORE(p, x) (*(p) = (x))
#else
#define LS_LOAD(p) (*(p))
#define LS_STORE(p, x) (*(p) = (x))
#endif

static __device__ __forceinline__ int ls_valid(size_t n, size_t base) {
  return n - base < LS_TILE ? (int)(n - base) : LS_TILE;
}

// Issues the loads of tile `base` of in, `valid` elements (the rest read as 0),
// striped: v[j] of thread t is vector j * LS_THREADS + t of the tile, so a warp reads
// 512 contiguous bytes an instruction. Nothing waits for them until v is used.
//
// Vector c of a partial tile: its elements below `valid`, zeros past them.
static __device__ __forceinline__ uint4 ls_load_partial(const unsigned *in, size_t base, int valid, int c) {
  int e = c * 4;
  uint4 r;
  r.x = e + 0 < valid ? in[base + e + 0] : 0;
  r.y = e + 1 < valid ? in[base + e + 1] : 0;
  r.z = e + 2 < valid ? in[base + e + 2] : 0;
  r.w = e + 3 < valid ? in[base + e + 3] : 0;
  return r;
}
static __device__ __forceinline__ void ls_load_striped(const unsigned *in, size_t base, int valid, uint4 v[LS_VECS]) {
  int t = threadIdx.x;
  if (valid == LS_TILE) {
    const uint4 *src = (const uint4 *)(in + base);
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) v[j] = LS_LOAD(src + j * LS_THREADS + t);
  } else {
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) v[j] = ls_load_partial(in, base, valid, j * LS_THREADS + t);
  }
}

// Striped v to each thread's own: thread t gets elements 16t .. 16t + 15 as
// four vectors, through shared memory.
static __device__ __forceinline__ void ls_to_threads(uint4 *s_vec, uint4 v[LS_VECS]) {
  int t = threadIdx.x;
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) s_vec[ls_swizzle(j * LS_THREADS + t)] = v[j];
  __syncthreads(); // every vector is in shared memory before any thread reads its 16
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) v[j] = s_vec[ls_swizzle(t * LS_VECS + j)];
}

// A thread's own 16 results back where ls_to_threads read its 16 elements. No
// barrier is needed first: each thread rewrites only what it alone read.
static __device__ __forceinline__ void ls_put_own(uint4 *s_vec, const uint4 v[LS_VECS]) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) s_vec[ls_swizzle(threadIdx.x * LS_VECS + j)] = v[j];
}

// Thread t's striped vectors of the tile in shared memory. The caller's
// barrier has made every thread's ls_put_own visible.
static __device__ __forceinline__ void ls_get_striped(const uint4 *s_vec, uint4 v[LS_VECS]) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) v[j] = s_vec[ls_swizzle(j * LS_THREADS + threadIdx.x)];
}

// Vector c of out's tile `base`, r plus `add`: one 16-byte store, or in a
// partial tile the elements below `valid`.
static __device__ __forceinline__ void ls_store_vector(unsigned *out, size_t base, int valid, int c, uint4 r,
                                                       unsigned add) {
  r.x += add, r.y += add, r.z += add, r.w += add;
  if (valid == LS_TILE) {
    LS_STORE((uint4 *)(out + base) + c, r);
  } else {
    int e = c * 4;
    if (e + 0 < valid) out[base + e + 0] = r.x;
    if (e + 1 < valid) out[base + e + 1] = r.y;
    if (e + 2 < valid) out[base + e + 2] = r.z;
    if (e + 3 < valid) out[base + e + 3] = r.w;
  }
}

// Striped v, plus `add`, to out's tile `base`: a warp writes 512 contiguous
// bytes an instruction.
static __device__ __forceinline__ void ls_store_striped(unsigned *out, size_t base, int valid, const uint4 v[LS_VECS],
                                                        unsigned add) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) ls_store_vector(out, base, valid, j * LS_THREADS + threadIdx.x, v[j], add);
}

#if LS_DYNAMIC_SMEM
// The dynamic shared memory of a kernel (LS_CFG_RING, LS_CFG_HELD_SMEM): its
// size is the launch's, LS_SMEM_SCAN, LS_SMEM_REPEATS or LS_SMEM_TILE.
extern __shared__ uint4 ls_dynamic[];
#endif
#if LS_CFG_RING

// The same from a tile's results in shared memory (LS_CFG_RING): each vector
// goes from shared memory to out without a register array for the tile, since
// the registers hold the next tile's loads meanwhile. The caller's barrier has
// made every thread's ls_put_own visible.
static __device__ __forceinline__ void ls_store_from_shared(unsigned *out, size_t base, int valid, const uint4 *s_vec,
                                                            unsigned add) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    int c = j * LS_THREADS + threadIdx.x;
    ls_store_vector(out, base, valid, c, s_vec[ls_swizzle(c)], add);
  }
}
#endif

// A whole tile into v, each thread's own 16 (the kernels that keep no loads in flight).
static __device__ __forceinline__ void ls_load_tile(const unsigned *in, size_t base, int valid, uint4 *s_vec,
                                                    uint4 v[LS_VECS]) {
  ls_load_striped(in, base, valid, v);
  ls_to_threads(s_vec, v);
}

// The inverse: thread t's 16 results v into out's tile, the same way back.
// The caller's barrier has ended every read of s_vec since ls_load_tile's.
static __device__ __forceinline__ void ls_store_tile(unsigned *out, size_t base, int valid, uint4 *s_vec,
                                                     uint4 v[LS_VECS]) {
  ls_put_own(s_vec, v);
  __syncthreads(); // every result is in shared memory before the striped reads
  ls_get_striped(s_vec, v);
  ls_store_striped(out, base, valid, v, 0);
}

// The sum of a thread's 16 elements.
static __device__ __forceinline__ unsigned ls_vector_sum(uint4 a) { return a.x + a.y + a.z + a.w; }
static __device__ __forceinline__ unsigned ls_thread_total(const uint4 v[LS_VECS]) {
  unsigned sum = 0;
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) sum += ls_vector_sum(v[j]);
  return sum;
}

// ---------------------------------------------------------------- block scan

// The sum of the totals of the warps before the calling thread's, once every
// warp's lane 31 has given its own (warp_total) through s_warp: a barrier,
// then LS_WARPS broadcast reads. *total gets the sum of all of them.
static __device__ __forceinline__ unsigned ls_warps_before(unsigned warp_total, unsigned *s_warp, unsigned *total) {
  int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 31) s_warp[warp] = warp_total;
  __syncthreads(); // the warp totals are written before any thread reads them
  unsigned before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < LS_WARPS; w++) {
    unsigned s = s_warp[w];
    before += w < warp ? s : 0;
    all += s;
  }
  *total = all;
  return before;
}

// Exclusive scan of one value per thread over the block; *total gets the sum
// of all LS_THREADS. Five shuffle steps in each warp, one barrier, then each thread
// adds the totals of the warps before its own (8 broadcast reads).
static __device__ __forceinline__ unsigned ls_block_exclusive(unsigned x, unsigned *s_warp, unsigned *total) {
  int lane = threadIdx.x & 31;
  unsigned inc = x;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    unsigned y = __shfl_up_sync(LS_FULL_MASK, inc, d);
    if (lane >= d) inc += y;
  }
  return ls_warps_before(inc, s_warp, total) + inc - x;
}

// The 16 exclusive results of a thread whose elements are v and whose first
// element's prefix is `prefix`.
// The exclusive scan of vector a's four elements, starting from `prefix`.
static __device__ __forceinline__ uint4 ls_vector_exclusive(uint4 a, unsigned prefix) {
  uint4 x;
  x.x = prefix;
  x.y = x.x + a.x;
  x.z = x.y + a.y;
  x.w = x.z + a.z;
  return x;
}
static __device__ __forceinline__ void ls_thread_exclusive(uint4 v[LS_VECS], unsigned prefix) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    uint4 a = v[j];
    v[j] = ls_vector_exclusive(a, prefix);
    prefix = v[j].w + a.w;
  }
}

// ---------------------------------------------------------------- kernels

// What a look-back kernel computes: a scan of the input, or find_repeats.
enum ls_op { LS_SCAN, LS_REPEATS };

#if !LS_CFG_WARPSCAN // the transpose's kernels alone use ls_fetch and ls_thread_count
// Issues the loads of tile `tile` into v (striped); for find_repeats, the last
// thread also loads the element after the tile, which its last flag needs.
static __device__ __forceinline__ void ls_fetch(int op, const unsigned *in, size_t n, unsigned tile, uint4 v[LS_VECS],
                                                unsigned *after) {
  size_t base = (size_t)tile * LS_TILE;
  ls_load_striped(in, base, ls_valid(n, base), v);
  if (op == LS_REPEATS && threadIdx.x == LS_THREADS - 1) *after = base + LS_TILE < n ? in[base + LS_TILE] : 0;
}
#endif

// find_repeats: bit 4j + k of the result flags element LS_ITEMS t + 4j + k of the
// tile starting at element `first` (thread t's own LS_ITEMS in v), set when it
// equals the next element and that one exists. `next` is the element after
// thread t's LS_ITEMS.
static_assert(LS_ITEMS <= 32, "find_repeats keeps a thread's flags as the bits of one word");
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
#if !LS_CFG_WARPSCAN // the transpose's kernels' flags: a thread's LS_VECS vectors
static __device__ __forceinline__ unsigned ls_repeat_flags(const uint4 v[LS_VECS], unsigned next, size_t first,
                                                           size_t n) {
  unsigned flags = 0;
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    unsigned after = j < LS_VECS - 1 ? v[j + 1].x : next;
    flags = ls_vector_flags(flags, v[j], after, first + 4 * j, n, 4 * j);
  }
  return flags;
}

// Step 2 of a round (both versions of the loop below), after the transpose:
// what thread t adds to the tile's sum. For a scan, the sum of its own
// elements v; for find_repeats, its count of repeats, whose flags go to
// *flags (the element after its own is the next thread's first, in s_vec,
// or for the last thread `after`).
static __device__ __forceinline__ unsigned ls_thread_count(int op, const uint4 *s_vec, const uint4 v[LS_VECS],
                                                           unsigned after, size_t base, size_t n, unsigned *flags) {
  int t = threadIdx.x;
  if (op == LS_SCAN) return ls_thread_total(v);
  unsigned neighbour = t < LS_THREADS - 1 ? s_vec[ls_swizzle((t + 1) * LS_VECS)].x : after;
  *flags = ls_repeat_flags(v, neighbour, base + (size_t)t * LS_ITEMS, n);
  return __popc(*flags);
}
#endif

#if !LS_CFG_AHEAD
// Step 4 of a round (both versions of the loop below): when the block holds a
// tile (`held` below `tiles`), warp 0 looks back for it and thread 0 puts the
// sum of every earlier tile in *s_prefix; for find_repeats the last tile's
// block also writes the count. held_sum is the held tile's own sum.
static __device__ __forceinline__ void ls_look_back_held(int op, int layout, unsigned *slots, unsigned held,
                                                         unsigned tiles, unsigned epoch, unsigned held_sum,
                                                         unsigned *s_prefix, unsigned *count) {
  if (held >= tiles || threadIdx.x >= 32) return;
  unsigned prefix = ls_look_back(layout, slots, held, epoch, held_sum);
  if (threadIdx.x == 0) {
    *s_prefix = prefix;
    if (op == LS_REPEATS && held == tiles - 1) *count = prefix + held_sum; // the last tile knows the total
  }
}
#endif

// find_repeats: a held tile's indices out, from `prefix` on. Bit k of a
// thread's flags marks element first + k as a repeat; `before` is the count
// of the tile's repeats before the thread's own. Each thread writes its own
// indices: putting the tile's list together in shared memory first, to write
// whole sectors, was 3-4 % slower on the H100 (a barrier a round, for lists of
// 1 element in 16; tuning-04-h100.txt, LS_CFG_STAGE, removed since).
static __device__ __forceinline__ void ls_put_repeats(unsigned *out, unsigned prefix, unsigned before, unsigned flags,
                                                      unsigned first) {
  for (unsigned pos = prefix + before; flags; flags &= flags - 1) out[pos++] = first + __ffs(flags) - 1;
}

// The single-pass kernels. Each block takes tickets until they run out (the
// grid is what fits on the GPU at once, ls_grid), and works on two tiles at a
// time: `tile`, whose loads are in flight, and `held`, the tile before it,
// whose results wait in registers for the look-back. Each round:
//   1. thread 0 takes the next ticket while the tile's loads are in flight;
//   2. the tile goes to the threads' registers and is scanned in the block,
//      and thread 0 publishes its sum at once: publishing never waits on
//      another tile;
//   3. the next tile's loads are issued into the registers the tile used (its
//      results wait in shared memory), and stay in flight during 4 and 5;
//   4. the block looks back for `held` (lookback.cuh), whose sum went out a
//      round ago, so its predecessors have had a round to publish theirs:
//      with LS_CFG_AHEAD (the default) every thread reads one slot of the
//      tiles between the block's previous tile and `held`, and the block adds
//      them to that tile's inclusive prefix; without it, warp 0 reads windows
//      of 32 slots back to the nearest PREFIX;
//   5. held's results, plus its prefix, go out; the tile's results move from
//      shared memory to the registers held's used (a scan), or stay as 16
//      flag bits a thread (find_repeats), and the tile becomes `held`.
// Were a block to look back on a tile as soon as it had published its sum,
// the tile's predecessors could still be loading: each of them waits for its
// own block's previous look-back before it publishes, so every look-back
// would wait on the slowest of its predecessors' blocks. Per tile: 12288
// elements read once (16-byte loads); for a scan, 12288 written once; one
// status slot written (with LS_CFG_AHEAD; twice without); the look-back reads
// about one slot per block on the GPU (LS_CFG_AHEAD; without, 32 slots per
// window row).
#if LS_CFG_WARPSCAN
// LS_CFG_WARPSCAN 1 (the default since e519b7d, 2026-11-25): the rounds
// without the transpose.
// Warp w owns the tile's vectors w * 32 * LS_VECS .. (w + 1) * 32 * LS_VECS - 1,
// lane l of it vectors w * 32 * LS_VECS + 32 j + l (j < LS_VECS), so each load
// and store instruction of a warp still covers 512 contiguous bytes; the scan
// runs LS_VECS warp scans side by side, one per j, instead of going through
// shared memory and back. A round has two barriers (the warp totals', and the
// look-back's); a scan's results wait for their prefix in shared memory, each
// where its own thread reads it back, so that needs none: in registers, or
// with LS_CFG_HELD_SMEM in one of two buffers, this round's or the held
// tile's. On the H100 it was 0-4 % faster than the transpose at 512 x 16, and
// it leaves room for bigger tiles (tuning-04-h100.txt, commits
// bc21e54..84253fd, 2026-11-25); the transpose's kernels, below, stay for
// comparison (LS_CFG_WARPSCAN 0).
static __device__ __forceinline__ int ls_warp_vec(int j) {
  return (threadIdx.x & ~31) * LS_VECS + 32 * j + (threadIdx.x & 31);
}
// The loads of tile `tile`, v[j] vector ls_warp_vec(j); for find_repeats,
// lane 31 also loads the element after its warp's part of the tile (the next
// warp's first, or the next tile's).
static __device__ __forceinline__ void ls_fetch_warp(int op, const unsigned *in, size_t n, unsigned tile,
                                                     uint4 v[LS_VECS], unsigned *after) {
  size_t base = (size_t)tile * LS_TILE;
  int valid = ls_valid(n, base);
#pragma unroll
  for (int j = 0; j < LS_VECS; j++)
    v[j] = valid == LS_TILE ? LS_LOAD((const uint4 *)(in + base) + ls_warp_vec(j))
                            : ls_load_partial(in, base, valid, ls_warp_vec(j));
  if (op == LS_REPEATS && (threadIdx.x & 31) == 31) {
    size_t e = base + 4 * (size_t)(ls_warp_vec(LS_VECS - 1) + 1);
    *after = e < n ? in[e] : 0;
  }
}
// Where round `round`'s results wait (LS_CFG_HELD_SMEM: one of two buffers,
// by the round's parity; else the one buffer, from which r takes them).
static __device__ __forceinline__ uint4 *ls_results(uint4 *s_res, int round) {
  return s_res + LS_CFG_HELD_SMEM * (round & 1) * (LS_TILE / 4);
}
// Each vector's count (cnt[j]: its sum, or its repeats) to its offset in the
// tile: LS_VECS warp scans side by side, then the warps' totals (a barrier).
// *total gets the tile's count.
static __device__ __forceinline__ void ls_warp_offsets(const unsigned cnt[LS_VECS], unsigned *s_warp,
                                                       unsigned off[LS_VECS], unsigned *total) {
  int lane = threadIdx.x & 31;
  unsigned inc[LS_VECS];
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) inc[j] = cnt[j];
#pragma unroll
  for (int d = 1; d < 32; d *= 2)
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) {
      unsigned y = __shfl_up_sync(LS_FULL_MASK, inc[j], d);
      if (lane >= d) inc[j] += y;
    }
  unsigned carry = 0; // the warp's count before vector j
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) {
    off[j] = carry + inc[j] - cnt[j];
    carry += __shfl_sync(LS_FULL_MASK, inc[j], 31);
  }
  unsigned before = ls_warps_before(carry, s_warp, total);
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) off[j] += before;
}
// find_repeats: bit 4j + k flags element 4 * ls_warp_vec(j) + k of the tile at
// `base`, set when it equals the next element and that one exists.
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
static __device__ __forceinline__ void ls_lookback_tiles(int op, int layout, const unsigned *in, unsigned *out,
                                                         unsigned *count, size_t n, unsigned tiles, unsigned span,
                                                         void *work) {
#if LS_CFG_HELD_SMEM
  uint4 *s_res = ls_dynamic; // two buffers: round r's results at s_res + (r & 1) * LS_TILE / 4
#else
  __shared__ uint4 s_res[LS_TILE / 4];
#endif
  __shared__ unsigned s_warp[LS_WARPS], s_first, s_next;
  __shared__ ls_tickets s_tickets;
#if LS_CFG_AHEAD
  __shared__ unsigned s_gap[2][LS_WARPS]; // the warps' parts of the gap's sum, by the round's parity
  unsigned anchor_next = 0, anchor_incl = 0; // the tile after the block's last held one, and that one's inclusive prefix
#else
  __shared__ unsigned s_prefix[2]; // held's prefix, by the round's parity
#endif
  ls_header *h = (ls_header *)work;
  unsigned *slots = (unsigned *)(h + 1);
  int t = threadIdx.x, round = 0;
  if (t == 0) s_first = ls_first_ticket(h, span, &s_tickets);
  __syncthreads(); // the first tile and the call's tickets are in shared memory before anyone reads them
  unsigned tile = s_first, epoch = s_tickets.epoch;
  unsigned held = tiles, held_sum = 0, held_flags = 0; // none held yet
  unsigned held_off[LS_VECS];                          // find_repeats: held's vectors' offsets
  uint4 v[LS_VECS], r[LS_VECS];                        // the tile's loads; held's results (a scan)
  unsigned after = 0;
  if (tile < tiles) ls_fetch_warp(op, in, n, tile, v, &after);
  while (tile < tiles || held < tiles) {
    unsigned next = tiles, sum = 0, flags = 0, off[LS_VECS], cnt[LS_VECS];
    if (tile < tiles) {
      if (t == 0) s_next = ls_next_ticket(h, &s_tickets);
      size_t base = (size_t)tile * LS_TILE;
      if (op == LS_SCAN) {
#pragma unroll
        for (int j = 0; j < LS_VECS; j++) cnt[j] = ls_vector_sum(v[j]);
      } else {
        flags = ls_warp_flags(v, after, base, n, cnt);
      }
      ls_warp_offsets(cnt, s_warp, off, &sum); // its barrier also publishes s_next
      next = s_next;
      if (t == 0) ls_publish_aggregate(layout, slots, tile, epoch, sum);
      if (op == LS_SCAN) {
        // The results but for the earlier tiles' prefix wait in shared memory,
        // each thread's where it alone reads them back (no barrier), while v
        // takes the next tile's loads and held's results still wait in r (with
        // LS_CFG_HELD_SMEM: in the other buffer).
#pragma unroll
        for (int j = 0; j < LS_VECS; j++) ls_results(s_res, round)[ls_warp_vec(j)] = ls_vector_exclusive(v[j], off[j]);
      }
      if (next < tiles) ls_fetch_warp(op, in, n, next, v, &after);
    }
#if LS_CFG_AHEAD
    if (held < tiles) {
      unsigned part = ls_warp_sum(ls_gap_part(layout, slots, anchor_next, held, epoch));
      if ((t & 31) == 0) s_gap[round & 1][t >> 5] = part;
    }
#else
    ls_look_back_held(op, layout, slots, held, tiles, epoch, held_sum, &s_prefix[round & 1], count);
#endif
    __syncthreads(); // held's prefix is in shared memory before anyone reads it
    if (held < tiles) {
      size_t base = (size_t)held * LS_TILE;
      int valid = ls_valid(n, base);
#if LS_CFG_AHEAD
      unsigned prefix = anchor_incl;
#pragma unroll
      for (int w = 0; w < LS_WARPS; w++) prefix += s_gap[round & 1][w];
      anchor_next = held + 1, anchor_incl = prefix + held_sum;
      if (op == LS_REPEATS && held == tiles - 1 && t == 0) *count = prefix + held_sum; // the last tile knows the total
#else
      unsigned prefix = s_prefix[round & 1];
#endif
      if (op == LS_SCAN) {
#pragma unroll
        for (int j = 0; j < LS_VECS; j++) // held's results: last round's (LS_CFG_HELD_SMEM), or in r
          ls_store_vector(out, base, valid, ls_warp_vec(j),
                          LS_CFG_HELD_SMEM ? ls_results(s_res, round - 1)[ls_warp_vec(j)] : r[j], prefix);
      } else {
#pragma unroll
        for (int j = 0; j < LS_VECS; j++)
          ls_put_repeats(out, prefix, held_off[j], (held_flags >> (4 * j)) & 15u, (unsigned)base + 4 * ls_warp_vec(j));
      }
    }
    if (tile < tiles && op == LS_SCAN && !LS_CFG_HELD_SMEM)
#pragma unroll
      for (int j = 0; j < LS_VECS; j++) r[j] = s_res[ls_warp_vec(j)];
    held = tile, held_sum = sum, held_flags = flags;
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) held_off[j] = off[j];
    tile = next, round++;
  }
}
#elif !LS_CFG_RING
static __device__ __forceinline__ void ls_lookback_tiles(int op, int layout, const unsigned *in, unsigned *out,
                                                         unsigned *count, size_t n, unsigned tiles, unsigned span,
                                                         void *work) {
  __shared__ uint4 s_vec[LS_TILE / 4];
  __shared__ unsigned s_warp[LS_WARPS], s_first, s_next, s_prefix;
  __shared__ ls_tickets s_tickets;
  ls_header *h = (ls_header *)work;
  unsigned *slots = (unsigned *)(h + 1);
  int t = threadIdx.x;
  if (t == 0) s_first = ls_first_ticket(h, span, &s_tickets);
  __syncthreads(); // the first tile and the call's tickets are in shared memory before anyone reads them
  unsigned tile = s_first, epoch = s_tickets.epoch;
  unsigned held = tiles, held_sum = 0, held_before = 0, held_flags = 0; // none held yet
  uint4 v[LS_VECS], r[LS_VECS];                                            // the tile's loads; held's results
  unsigned after = 0;
  if (tile < tiles) ls_fetch(op, in, n, tile, v, &after);
  while (tile < tiles || held < tiles) {
    unsigned next = tiles, sum = 0, before = 0, flags = 0;
    if (tile < tiles) {
      if (t == 0) s_next = ls_next_ticket(h, &s_tickets); // 1
      size_t base = (size_t)tile * LS_TILE;
      ls_to_threads(s_vec, v); // 2; its barrier also publishes s_next
      next = s_next;
      unsigned mine = ls_thread_count(op, s_vec, v, after, base, n, &flags);
      before = ls_block_exclusive(mine, s_warp, &sum);
      if (t == 0) ls_publish_aggregate(layout, slots, tile, epoch, sum);
      if (op == LS_SCAN) {
        ls_thread_exclusive(v, before);
        ls_put_own(s_vec, v);
      }
      if (next < tiles) ls_fetch(op, in, n, next, v, &after); // 3
    }
    ls_look_back_held(op, layout, slots, held, tiles, epoch, held_sum, &s_prefix, count); // 4
    __syncthreads(); // held's prefix and the tile's results are in shared memory before anyone reads them
    if (held < tiles) { // 5
      size_t base = (size_t)held * LS_TILE;
      if (op == LS_SCAN) {
        ls_store_striped(out, base, ls_valid(n, base), r, s_prefix);
      } else {
        ls_put_repeats(out, s_prefix, held_before, held_flags, (unsigned)(base + (size_t)t * LS_ITEMS));
      }
    }
    if (op == LS_SCAN && tile < tiles) ls_get_striped(s_vec, r);
    __syncthreads(); // s_vec, s_prefix and s_next are read before the next round rewrites them
    held = tile, held_sum = sum, held_before = before, held_flags = flags;
    tile = next;
  }
}
#else
// The same kernels with LS_CFG_RING 1: a block holds LS_DEPTH tiles, not one,
// and keeps them in shared memory, not in registers. The tiles a block works
// on go round a ring of LS_SLOTS = LS_DEPTH + 1 slots, one slot a round: the
// round's tile takes slot `slot`, and the oldest held tile, `held`, whose sum
// went out LS_DEPTH rounds ago, is in the next slot, `old`, which the round
// empties for the next round's tile. A slot holds its tile's id (s_held; at
// or past `tiles` when that round had no tile) and sum (s_sum), and for a
// scan the tile's results, in the slot's own tile buffer. find_repeats has a
// single tile buffer, since a tile needs it only until its flags are known:
// its slots hold each thread's flags and the count of the tile's flags before
// the thread's own (s_flags, s_before; each thread reads and writes only its
// own words there, so they need no barrier). Each round:
//   1. thread 0 takes the next ticket while the tile's loads are in flight;
//   2. the tile goes through its buffer to the threads' registers and is
//      scanned in the block, thread 0 publishes its sum at once, and the
//      tile's results go to its slot;
//   3. the next tile's loads are issued into the registers the tile used, the
//      only tile-sized registers a thread has, in flight during 4 and 5;
//   4. warp 0 looks back for `held`, if the slot holds a tile;
//   5. held's results, plus its prefix, go out from slot `old`.
// Once the tickets have run out, rounds without a tile go on until every held
// tile has gone out (held_n counts them); the slots of a block that took
// fewer tiles than LS_SLOTS, or of the rounds before its first tile was
// LS_DEPTH rounds old, are empty.
//
// No block waits forever, at any depth. A block waits only in step 4, for the
// look-back of its oldest held tile, which waits only for tiles with smaller
// ids to publish something. Such a tile's ticket was taken before, so its
// block is running (or done); and that block publishes the tile's sum in the
// tile's first round, having waited before it only in the look-backs of its
// own earlier tiles, whose ids are smaller still. So by induction on the id,
// from tile 0 (whose sum is its PREFIX, published at once), every tile
// publishes its sum and then its prefix, and every look-back ends. The
// barriers wait only for the block's own threads, which all run the same
// rounds: tile, held and held_n are the same in every thread.
//
// Shared memory: slot `old` of round k is slot `slot` of round k + 1. Its last
// reads in round k (s_held at the round's start, s_sum in 4, the results in
// 5) come before the round's last barrier, and its first writes in round k + 1
// after it. What round k writes to slot `slot` is read in round k + LS_DEPTH,
// after at least round k's last barrier. s_warp, s_next, s_prefix and
// find_repeats's tile buffer are used as in the kernel above.
static_assert(LS_SLOTS <= LS_THREADS, "thread s empties slot s");
static __device__ __forceinline__ void ls_lookback_tiles(int op, int layout, const unsigned *in, unsigned *out,
                                                         unsigned *count, size_t n, unsigned tiles, unsigned span,
                                                         void *work) {
  // Dynamic (LS_SMEM_SCAN, LS_SMEM_REPEATS): a scan's LS_SLOTS tile buffers, or
  // find_repeats's one, then its flags and counts, LS_THREADS words a slot.
  uint4 *s_tiles = ls_dynamic;
  unsigned *s_flags = (unsigned *)(ls_dynamic + LS_TILE / 4), *s_before = s_flags + LS_SLOTS * LS_THREADS;
  __shared__ unsigned s_warp[LS_WARPS], s_first, s_next, s_prefix, s_held[LS_SLOTS], s_sum[LS_SLOTS];
  __shared__ ls_tickets s_tickets;
  ls_header *h = (ls_header *)work;
  unsigned *slots = (unsigned *)(h + 1);
  int t = threadIdx.x;
  if (t == 0) s_first = ls_first_ticket(h, span, &s_tickets);
  if (t < LS_SLOTS) s_held[t] = tiles; // every slot starts empty
  __syncthreads(); // the first tile, the call's tickets and the empty slots are in shared memory before any read
  unsigned tile = s_first, epoch = s_tickets.epoch;
  int slot = 0, held_n = 0; // this round's slot; the tiles held
  uint4 v[LS_VECS];         // the tile's loads
  unsigned after = 0;
  if (tile < tiles) ls_fetch(op, in, n, tile, v, &after);
  while (tile < tiles || held_n > 0) {
    int old = slot == LS_DEPTH ? 0 : slot + 1; // the oldest held tile's slot
    unsigned held = s_held[old], next = tiles;
    if (t == 0) s_held[slot] = tile; // at or past `tiles`: none
    if (tile < tiles) {
      if (t == 0) s_next = ls_next_ticket(h, &s_tickets); // 1
      size_t base = (size_t)tile * LS_TILE;
      uint4 *s_vec = s_tiles + (op == LS_SCAN ? slot : 0) * (LS_TILE / 4);
      ls_to_threads(s_vec, v); // 2; its barrier also publishes s_next
      next = s_next;
      unsigned flags = 0, sum;
      unsigned mine = ls_thread_count(op, s_vec, v, after, base, n, &flags);
      unsigned before = ls_block_exclusive(mine, s_warp, &sum);
      if (t == 0) {
        ls_publish_aggregate(layout, slots, tile, epoch, sum);
        s_sum[slot] = sum;
      }
      if (op == LS_SCAN) {
        ls_thread_exclusive(v, before);
        ls_put_own(s_vec, v);
      } else {
        s_flags[slot * LS_THREADS + t] = flags;
        s_before[slot * LS_THREADS + t] = before;
      }
      if (next < tiles) ls_fetch(op, in, n, next, v, &after); // 3
    }
    ls_look_back_held(op, layout, slots, held, tiles, epoch, s_sum[old], &s_prefix, count); // 4
    __syncthreads(); // held's prefix is in shared memory before anyone reads it
    if (held < tiles) { // 5
      size_t base = (size_t)held * LS_TILE;
      if (op == LS_SCAN) {
        ls_store_from_shared(out, base, ls_valid(n, base), s_tiles + old * (LS_TILE / 4), s_prefix);
      } else {
        ls_put_repeats(out, s_prefix, s_before[old * LS_THREADS + t], s_flags[old * LS_THREADS + t],
                       (unsigned)(base + (size_t)t * LS_ITEMS));
      }
    }
    __syncthreads(); // slot `old`, s_prefix and s_next are read before the next round rewrites them
    held_n += (tile < tiles) - (held < tiles);
    slot = old;
    tile = next;
  }
}
#endif

// At most 64 registers a thread, so LS_CFG_MIN_BLOCKS blocks of LS_THREADS fit on each SM.
#define LS_BOUNDS __launch_bounds__(LS_THREADS, LS_CFG_MIN_BLOCKS)

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
// writes the tile's sum to sums[b] when sums is given. 12288 read, 12288 written.
static __global__ void LS_BOUNDS ls_scan_tiles(const unsigned *in, unsigned *out, size_t n, unsigned *sums,
                                               const unsigned *carry) {
#if LS_DYNAMIC_SMEM
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes
#else
  __shared__ uint4 s_vec[LS_TILE / 4];
#endif
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

// Block b writes the sum of tile b to sums[b]: 12288 read, 4 bytes written.
static __global__ void LS_BOUNDS ls_reduce_tiles(const unsigned *in, size_t n, unsigned *sums) {
#if LS_DYNAMIC_SMEM
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes
#else
  __shared__ uint4 s_vec[LS_TILE / 4];
#endif
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

// With LS_CFG_RING or LS_CFG_HELD_SMEM 1, lets `kernel` take `bytes` of dynamic shared memory,
// which past 48 KiB a kernel may only after it has asked: once per kernel and
// device (the attribute belongs to the device's copy of the kernel), before
// its occupancy is asked or it is launched. Without the ring, nothing to do.
static cudaError_t ls_allow_smem(const void *kernel, size_t bytes) {
#if !LS_DYNAMIC_SMEM
  (void)kernel, (void)bytes;
  return cudaSuccess;
#else
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
#endif
}

// The grid of a single-pass kernel for `tiles` tiles, whose blocks take `smem`
// bytes of dynamic shared memory: as many blocks as fit on the GPU at once
// (asked once per kernel and device), or one a tile when LS_CFG_PERSISTENT is
// 0 (a tuning experiment).
#ifndef LS_CFG_PERSISTENT
#define LS_CFG_PERSISTENT 1
#endif
#if LS_CFG_AHEAD && !LS_CFG_PERSISTENT
#error "LS_CFG_AHEAD 1 anchors a look-back on the block's previous tile: persistent blocks only"
#endif
static cudaError_t ls_grid(const void *kernel, size_t smem, unsigned tiles, unsigned *grid) {
  static struct {
    const void *kernel;
    int device;
    unsigned blocks;
  } known[8];
  *grid = tiles;
  LS_TRY(ls_allow_smem(kernel, smem));
  if (!LS_CFG_PERSISTENT) return cudaSuccess;
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
  LS_TRY(ls_grid((const void *)ls_repeats, LS_SMEM_REPEATS, tiles, &grid));
  ls_repeats<<<grid, LS_THREADS, LS_SMEM_REPEATS>>>(d_in, d_indices, d_count, n, tiles, tiles + grid, d_work);
  return cudaGetLastError();
}
