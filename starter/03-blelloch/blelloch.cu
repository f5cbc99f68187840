// blelloch.cu: your index functions for the Blelloch scan (assignment 03).
// The handout is assignments/03-blelloch/README.md. blelloch.h declares these
// three functions and holds the per-thread steps that call them; the kernel
// (main.cu) and the CPU bank-conflict model (model.cu) both run those steps, so
// the model counts exactly the shared-memory accesses your kernel makes.
//
// The starter is correct but slow: every segment is padded to a full tree of
// 2048 leaves, thread t moves the neighbours 2t and 2t+1, and element i sits in
// word i, so nearly every step has bank conflicts. See them with:
//   make build/starter/03-blelloch/model && build/starter/03-blelloch/model

// Task 1: the shared-memory word of tree element i (0 <= i < 2048). Different
// elements need different words, all below SMEM_WORDS (2304).
// TODO(student): task 1, pad the index so that no step has a bank conflict on 32 banks (about 1 line).
__host__ __device__ int padded_index(int i) { return i; }

// Task 2: the tree element that thread t (0 <= t < tree/2) moves between
// global and shared memory as its k-th element (k = 0, 1).
// TODO(student): task 2, one element from each half of the tree (about 1 line).
__host__ __device__ int thread_element(int t, int k, int tree) {
  (void)tree;
  return 2 * t + k;
}

// Task 3: the leaves of the tree for a segment of len elements (1 <= len <= 2048).
// TODO(student): task 3, the smallest tree that works (about 3 lines).
__host__ __device__ int tree_size(int len) {
  (void)len;
  return TILE;
}
