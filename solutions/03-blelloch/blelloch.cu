// blelloch.cu: the reference Blelloch scan and index functions (assignment 03).
// Same names and signatures as starter/03-blelloch/blelloch.cu, so diffing the
// two files shows the answers; ANSWERS.md explains them with the model's numbers.

#include "blelloch.h"

// At stride s the tree combines tree/(2s) pairs of nodes, one per thread
// t < tree/(2s): (left, right) = (s(2t+1) - 1, s(2t+2) - 1), the roots of two
// neighbouring subtrees of s leaves each.
static __device__ __forceinline__ int left_of(int t, int stride) { return stride * (2 * t + 1) - 1; }
static __device__ __forceinline__ int right_of(int t, int stride) { return stride * (2 * t + 2) - 1; }

// Task 1: up-sweep, root, down-sweep. Called with tree = TILE or with the
// segment's smaller tree. runner.cu includes this file at its end, so its
// kernels inline the function twice: in the call with the constant TILE the
// loops unroll and every stride is a constant (the PTX that make ptx A=03
// prints has one barrier per unrolled step); in the call with a smaller tree,
// tree is known only at run time and the loops stay loops.
//
// The barrier before each step: while the step, or the one before it, has more
// than 32 threads, they span several warps and every warp must wait at
// __syncthreads(). From there on (the top of the tree) they are all in warp 0,
// whose __syncwarp() is a barrier and a memory fence for its lanes; the other
// warps skip those steps and go on to the next __syncthreads(). The condition
// is the same in every thread, so the whole block reaches every __syncthreads().
// The accesses are exactly the standard sweep's that the CPU model counts: each
// up-sweep step reads left and right and writes right; each down-sweep step
// reads both before writing either (two loads, two stores).
__device__ void blelloch_scan_tree(int layout, unsigned *temp, int tree) {
  const int t = threadIdx.x;
#pragma unroll
  for (int stride = 1, active = tree / 2; active > 0; stride *= 2, active /= 2) {
    if (2 * active > WARP) { // the step before (or the load) had up to 2 * active threads
      __syncthreads();
    } else if (t < WARP) {
      __syncwarp();
    } else {
      continue;
    }
    if (t < active)
      temp[shared_word(layout, right_of(t, stride))] += temp[shared_word(layout, left_of(t, stride))];
  }
  // The last up-sweep step was thread 0's, which wrote the root itself: no barrier.
  // The root held the total; the identity 0 makes the scan exclusive.
  if (t == 0) temp[shared_word(layout, tree - 1)] = 0;
#pragma unroll
  for (int stride = tree / 2, active = 1; stride > 0; stride /= 2, active *= 2) {
    if (active > WARP) { // the step before had active / 2 threads
      __syncthreads();
    } else if (t < WARP) {
      __syncwarp();
    } else {
      continue;
    }
    if (t < active) {
      // The right node holds the sum of everything before the pair's subtrees:
      // the left subtree gets that prefix, the right one that prefix plus the
      // left subtree's total (which the up-sweep left in `left`).
      int a = shared_word(layout, left_of(t, stride)), b = shared_word(layout, right_of(t, stride));
      unsigned left_total = temp[a], prefix = temp[b];
      temp[a] = prefix;
      temp[b] = prefix + left_total;
    }
  }
  __syncthreads(); // every step is written before any thread reads the result
}

// Task 2: one pad word after every 32 elements, and one more after every 1024.
// At stride s the pairs of a warp are 2s elements apart. For 2s <= 32 they lie
// in consecutive rows of 32 elements, and the first term shifts each row by one
// bank, which separates them. For 2s = 64..1024 one warp's addresses would
// repeat the same banks every 1024 elements; the second term shifts each
// 1024-element half by one more bank, which separates those too. The tree's last
// element 2047 lands in word 2047 + 63 + 1 = 2111, so the kernel's 2304 words
// are enough. The model shows every step 1-way.
__host__ __device__ int padded_index(int i) { return i + (i >> 5) + (i >> 10); }

// Task 3: thread t moves element t of the first half and element t + tree/2 of
// the second. Each warp's load and store instructions then touch 32
// consecutive ints (128 bytes, one cache line) in global memory and 32
// consecutive words, in 32 different banks, in shared memory.
__host__ __device__ int thread_element(int t, int k, int tree) { return t + k * (tree / 2); }

// Task 4: the smallest power of two that holds the segment (and at least 2, so
// that the tree has a root with two children). The pairing of the sweeps needs a
// power of two; the leaves past the segment hold 0, which changes no prefix.
// A segment of 33 elements then takes 64 leaves: 2 * 63 additions in 12 steps
// instead of 2 * 2047 in 22, and 32 threads instead of 1024.
__host__ __device__ int tree_size(int len) {
  int tree = 2;
  while (tree < len) tree *= 2;
  return tree;
}
