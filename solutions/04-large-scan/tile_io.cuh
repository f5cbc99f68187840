// tile_io.cuh (solution, assignment 04; layer: tile I/O): loading a tile of
// the input into registers and storing a tile of results, with 16-byte
// accesses that a warp issues over 512 contiguous bytes. Two arrangements:
//   - warp-owned (the single-pass kernels): warp w owns a consecutive part of
//     the tile, and lane l's vector j is vector 32 j + l of that part, so each
//     thread's vectors are 32 apart and the scan runs LS_VECS warp scans side
//     by side (block_scan.cuh), with no trip through shared memory;
//   - striped, then each thread's own (the one-tile kernels): the loads are
//     striped over the block, and a transpose through shared memory gives
//     thread t the consecutive elements LS_ITEMS t .. LS_ITEMS (t + 1) - 1.
// A partial tile (the last, below LS_TILE elements) reads zeros past the end
// and writes only its valid elements.
#ifndef LS_TILE_IO_CUH
#define LS_TILE_IO_CUH

#include "policy.cuh"

// The dynamic shared memory of a kernel; its size is the launch's
// (LS_SMEM_SCAN or LS_SMEM_TILE, policy.cuh).
extern __shared__ uint4 ls_dynamic[];

// Elements of the tile starting at element `base`: LS_TILE, or fewer in the last.
static __device__ __forceinline__ int ls_valid(size_t n, size_t base) {
  return n - base < LS_TILE ? (int)(n - base) : LS_TILE;
}

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

// Vector c of out's tile `base`, r plus `add`: one 16-byte store, or in a
// partial tile the elements below `valid`.
static __device__ __forceinline__ void ls_store_vector(unsigned *out, size_t base, int valid, int c, uint4 r,
                                                       unsigned add) {
  r.x += add, r.y += add, r.z += add, r.w += add;
  if (valid == LS_TILE) {
    *((uint4 *)(out + base) + c) = r;
  } else {
    int e = c * 4;
    if (e + 0 < valid) out[base + e + 0] = r.x;
    if (e + 1 < valid) out[base + e + 1] = r.y;
    if (e + 2 < valid) out[base + e + 2] = r.z;
    if (e + 3 < valid) out[base + e + 3] = r.w;
  }
}

// The sum of a vector's four elements, and of a thread's LS_VECS vectors.
static __device__ __forceinline__ unsigned ls_vector_sum(uint4 a) { return a.x + a.y + a.z + a.w; }
static __device__ __forceinline__ unsigned ls_thread_total(const uint4 v[LS_VECS]) {
  unsigned sum = 0;
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) sum += ls_vector_sum(v[j]);
  return sum;
}

// ---------------------------------------------------------------- warp-owned

// The tile's vector that the calling thread holds as its j-th.
static __device__ __forceinline__ int ls_warp_vec(int j) {
  return (threadIdx.x & ~31) * LS_VECS + 32 * j + (threadIdx.x & 31);
}

// Issues the loads of tile `tile` into v, v[j] vector ls_warp_vec(j); nothing
// waits for them until v is read. With `after` (find_repeats), lane 31 also
// loads the element after its warp's part of the tile (the next warp's first,
// or the next tile's; 0 past the end), which its last flag needs.
static __device__ __forceinline__ void ls_fetch_warp(const unsigned *in, size_t n, unsigned tile, uint4 v[LS_VECS],
                                                     unsigned *after) {
  size_t base = (size_t)tile * LS_TILE;
  int valid = ls_valid(n, base);
#pragma unroll
  for (int j = 0; j < LS_VECS; j++)
    v[j] = valid == LS_TILE ? *((const uint4 *)(in + base) + ls_warp_vec(j))
                            : ls_load_partial(in, base, valid, ls_warp_vec(j));
  if (after && (threadIdx.x & 31) == 31) {
    size_t e = base + 4 * (size_t)(ls_warp_vec(LS_VECS - 1) + 1);
    *after = e < n ? in[e] : 0;
  }
}

// ---------------------------------------------------------------- striped, then each thread's own

// Shared-memory position of vector c (0 .. LS_TILE / 4 - 1) of a tile. The
// loads write vector j * LS_THREADS + t (8 consecutive threads: 8 consecutive
// vectors); the scan reads vectors LS_VECS t .. LS_VECS t + LS_VECS - 1. A
// 16-byte access is served 8 threads at a time, so 8 threads must fall in 8
// different 16-byte bank groups: XOR-ing c's low three bits with its bits 3..5
// permutes each aligned group of 8 (the striped accesses stay conflict-free)
// and sends the vectors LS_VECS t + j of 8 consecutive threads to 8 groups.
static __device__ __forceinline__ int ls_swizzle(int c) { return c ^ ((c >> 3) & 7); }

// The whole tile at `base` into v, thread t's own LS_VECS vectors: striped
// loads (v[j] is vector j * LS_THREADS + t, so a warp reads 512 contiguous
// bytes an instruction), then through shared memory.
static __device__ __forceinline__ void ls_load_tile(const unsigned *in, size_t base, int valid, uint4 *s_vec,
                                                    uint4 v[LS_VECS]) {
  int t = threadIdx.x;
  if (valid == LS_TILE) {
    const uint4 *src = (const uint4 *)(in + base);
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) v[j] = *(src + j * LS_THREADS + t);
  } else {
#pragma unroll
    for (int j = 0; j < LS_VECS; j++) v[j] = ls_load_partial(in, base, valid, j * LS_THREADS + t);
  }
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) s_vec[ls_swizzle(j * LS_THREADS + t)] = v[j];
  __syncthreads(); // every vector is in shared memory before any thread reads its own
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) v[j] = s_vec[ls_swizzle(t * LS_VECS + j)];
}

// The inverse: thread t's own results v into out's tile, back through shared
// memory (each thread first rewrites only what it alone read, so no barrier
// is needed before) and striped. The caller's barrier has ended every read of
// s_vec since ls_load_tile's.
static __device__ __forceinline__ void ls_store_tile(unsigned *out, size_t base, int valid, uint4 *s_vec,
                                                     uint4 v[LS_VECS]) {
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) s_vec[ls_swizzle(threadIdx.x * LS_VECS + j)] = v[j];
  __syncthreads(); // every result is in shared memory before the striped reads
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) v[j] = s_vec[ls_swizzle(j * LS_THREADS + threadIdx.x)];
#pragma unroll
  for (int j = 0; j < LS_VECS; j++) ls_store_vector(out, base, valid, j * LS_THREADS + threadIdx.x, v[j], 0);
}

#endif
