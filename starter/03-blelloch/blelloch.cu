// blelloch.cu: your Blelloch scan and its index functions (assignment 03).
// The handout is assignments/03-blelloch/README.md; blelloch.h declares these
// four functions. The kernels (runner.cu) load each segment into a tree with your
// thread_element and padded_index, call your blelloch_scan_tree, and store the
// result. The CPU model (model.cu) counts the bank conflicts your padded_index
// gives on the standard sweep's accesses: make build/starter/03-blelloch/model
// && build/starter/03-blelloch/model
//
// As handed out the scan is wrong (it stops after the up-sweep), and its
// layout is unpadded with interleaved loads, so nearly every step has bank
// conflicts once it is complete.

#include "blelloch.h"

// Task 1: the up-sweep, the root clear and the down-sweep of the tree in temp,
// with their barriers. Every thread of the block calls it; element i of the
// tree is temp[shared_word(layout, i)]. The up-sweep is written for you.
__device__ void blelloch_scan_tree(int layout, unsigned *temp, int tree) {
  const int t = threadIdx.x;
  // Up-sweep: at stride s, thread t < tree/(2s) adds the root of the left
  // subtree of its pair into the root of the right one.
  for (int stride = 1, active = tree / 2; active > 0; stride *= 2, active /= 2) {
    __syncthreads(); // the step before (or the load) has written what this step reads
    if (t < active) {
      int left = stride * (2 * t + 1) - 1, right = stride * (2 * t + 2) - 1;
      temp[shared_word(layout, right)] += temp[shared_word(layout, left)];
    }
  }
  // TODO(student): task 1, clear the root (element tree - 1) and write the
  // down-sweep, with the barriers it needs, ending with a barrier (about 15 lines).
  __syncthreads();
}

// Task 2: the shared-memory word of tree element i (0 <= i < 2048). Different
// elements need different words, all below SMEM_WORDS (2304).
// TODO(student): task 2, pad the index so that no step has a bank conflict on 32 banks (about 1 line).
__host__ __device__ int padded_index(int i) { return i; }

// Task 3: the tree element that thread t (0 <= t < tree/2) moves between
// global and shared memory as its k-th element (k = 0, 1).
// TODO(student): task 3, one element from each half of the tree (about 1 line).
__host__ __device__ int thread_element(int t, int k, int tree) {
  (void)tree;
  return 2 * t + k;
}

// Task 4: the leaves of the tree for a segment of len elements (1 <= len <= 2048).
// TODO(student): task 4, the smallest tree that works (about 3 lines).
__host__ __device__ int tree_size(int len) {
  (void)len;
  return TILE;
}
