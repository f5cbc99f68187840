// blelloch.h: what you write in blelloch.cu (assignment 03), and the course-owned
// pieces around it: where a tree element lives in shared memory (shared_word),
// and the load and store of each thread's two elements.
//
// The kernels (runner.cu) load a segment into a tree, call your
// blelloch_scan_tree, and store the result. The CPU bank-conflict model
// (model.cu) evaluates your padded_index, thread_element and tree_size over the
// standard sweep's accesses, with no GPU; on a GPU, ncu counts your kernel's.
// Your blelloch.cu is compiled on its own (with -rdc=true) and inspected; the
// runner includes it after its kernels, and the model's table program links
// its object: these declarations are all the course code knows of it.
//
// One block scans one segment of len <= TILE elements as a tree of `tree`
// leaves (a power of two, len <= tree <= TILE); leaves len..tree-1 hold zeros.
// Tree element i lives in shared word shared_word(layout, i).
#ifndef BLELLOCH_H
#define BLELLOCH_H

#include "variants.h" // the variant names, shared with the judge

enum {
  TILE = 2048,             // the most elements one block scans: two per thread
  THREADS = TILE / 2,      // threads of a block that scans a full tile
  SMEM_WORDS = TILE + TILE / 8, // the shared array the kernel allocates: room for one pad word in eight
  WARP = 32,
};

// ---------------------------------------------------------------- what you write (blelloch.cu)

// Task 1: the Blelloch scan of one tree in shared memory. Called by every
// thread of the block (at least tree/2 of them, a whole number of warps;
// thread t is threadIdx.x) after the tree's `tree` leaves (a power of two, 2..TILE) are
// in temp, element i in word shared_word(layout, i). Up-sweep, clear the root,
// down-sweep, with the barriers each step needs; on return temp holds the
// exclusive scan of the leaves (element i = the sum of elements 0..i-1, mod
// 2^32) and every thread may read any element: end with a barrier. Index
// shared memory only through shared_word(layout, i): the CPU model and ncu
// count bank conflicts on the standard sweep's accesses (docs in the handout).
__device__ void blelloch_scan_tree(int layout, unsigned *temp, int tree);

// Task 2: the shared-memory word that holds tree element i, 0 <= i < TILE.
// Different elements must get different words, all below SMEM_WORDS.
__host__ __device__ int padded_index(int i);

// Task 3: the tree element that thread t (0 <= t < tree/2) moves between global
// and shared memory as its k-th element (k = 0 or 1). Together the tree/2 threads
// must move each of the elements 0..tree-1 exactly once.
__host__ __device__ int thread_element(int t, int k, int tree);

// Task 4: the number of leaves of the tree for a segment of len elements
// (1 <= len <= TILE): a power of two, at least 2, at least len, at most TILE.
__host__ __device__ int tree_size(int len);

// ---------------------------------------------------------------- course-owned from here

// Which index function places the tree in shared memory. One kernel (and one
// model variant) per layout, all with your thread_element and tree_size.
typedef enum layout {
  LAYOUT_STUDENT, // your padded_index
  LAYOUT_NONE,    // element i in word i: the unpadded baseline
  LAYOUT_GEMS16,  // the classic offset for 16 banks (GPU Gems 3, ch. 39)
  LAYOUT_COUNT
} layout;

typedef struct layout_info {
  const char *slug;    // the variant name, in the runner and in the model
  const char *summary; // one line for --list
} layout_info;

// blelloch_padded, blelloch_unpadded, blelloch_gems16 (variants.h).
#define BL_LAYOUT_INFO(id, slug, summary) {slug, summary},
static const layout_info LAYOUTS[LAYOUT_COUNT] = {BL_LAYOUT_LIST(BL_LAYOUT_INFO)};
#undef BL_LAYOUT_INFO

// The shared word of tree element i. `layout` is a compile-time constant in
// each kernel, so the switch folds away.
static __host__ __device__ __forceinline__ int shared_word(int layout, int i) {
  switch (layout) {
  case LAYOUT_NONE: return i;
  case LAYOUT_GEMS16: return i + (i >> 4) + (i >> 8); // CONFLICT_FREE_OFFSET for 16 banks
  default: return padded_index(i);
  }
}

// Threads a block needs for a tree: tree/2, rounded up to whole warps.
static __host__ __device__ __forceinline__ int block_threads(int tree) { return (tree / 2 + WARP - 1) / WARP * WARP; }

// The element thread t moves as its k-th, or -1 when it moves none. Only the
// first tree/2 threads move elements; an answer outside 0..tree-1 moves nothing.
static __host__ __device__ __forceinline__ int moved_element(int t, int k, int tree) {
  if (t >= tree / 2) return -1;
  int e = thread_element(t, k, tree);
  return e >= 0 && e < tree ? e : -1;
}

// The steps of one thread. Sums are unsigned so they wrap modulo 2^32, as the
// CPU reference's do (signed overflow would be undefined on the CPU).

// Load, in two parts so that the kernel can read the next segment from global
// memory while it scans this one. e = moved_element(t, k, tree); seg is the
// segment, len its length. First the global read: 0 past the segment's end,
// which pads the tree...
static __host__ __device__ __forceinline__ unsigned read_element(const int *seg, int len, int e) {
  return e >= 0 && e < len ? (unsigned)seg[e] : 0u;
}

// ... then the store into the tree.
static __host__ __device__ __forceinline__ void put_element(int layout, unsigned *temp, int e, unsigned v) {
  if (e >= 0) temp[shared_word(layout, e)] = v;
}

// Store: the exclusive prefix of element e, for the elements the segment has.
static __host__ __device__ __forceinline__ void store_element(int layout, const unsigned *temp, int *seg, int len,
                                                              int e) {
  if (e >= 0 && e < len) seg[e] = (int)temp[shared_word(layout, e)];
}

#endif
