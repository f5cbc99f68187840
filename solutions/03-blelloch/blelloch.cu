// blelloch.cu: the reference index functions for the Blelloch scan
// (assignment 03). Same names and signatures as starter/03-blelloch/blelloch.cu,
// so diffing the two files shows the answers; ANSWERS.md explains them with the
// model's numbers.

// Task 1: one pad word after every 32 elements, and one more after every 1024.
// At stride s the pairs of a warp are 2s elements apart. For 2s <= 32 they lie
// in 2s/... consecutive rows of 32 elements, and the first term shifts each row
// by one bank, which separates them. For 2s = 64..1024 one warp's 32/(2s/32)
// addresses would repeat the same banks every 1024 elements; the second term
// shifts each 1024-element half by one more bank, which separates those too.
// The tree's last element 2047 lands in word 2047 + 63 + 1 = 2111, so the
// kernel's 2304 words are enough. The model shows every step 1-way.
__host__ __device__ int padded_index(int i) { return i + (i >> 5) + (i >> 10); }

// Task 2: thread t moves element t of the first half and element t + tree/2 of
// the second. Each warp's load and store instructions then touch 32
// consecutive ints (128 bytes, one cache line) in global memory and 32
// consecutive words, in 32 different banks, in shared memory.
__host__ __device__ int thread_element(int t, int k, int tree) { return t + k * (tree / 2); }

// Task 3: the smallest power of two that holds the segment (and at least 2, so
// that the tree has a root with two children). The pairing of the sweeps needs a
// power of two; the leaves past the segment hold 0, which changes no prefix.
// A segment of 33 elements then takes 64 leaves: 2 * 63 additions in 12 steps
// instead of 2 * 2047 in 22, and 32 threads instead of 1024.
__host__ __device__ int tree_size(int len) {
  int tree = 2;
  while (tree < len) tree *= 2;
  return tree;
}
