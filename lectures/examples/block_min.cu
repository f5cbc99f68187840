// block_min.cu: lecture 02's two block-wide patterns of rounds, shown on the
// minimum.
//
// A batch of segments of L ints, one block per segment, each on its own:
//
//   block_erode     ROUNDS rounds of a 3-point minimum filter (an erosion):
//                   out[i] = the min of the segment's elements i - ROUNDS ..
//                   i + ROUNDS (clipped to the segment), over two shared
//                   buffers that swap roles, one barrier per round; thread t
//                   holds element t (L <= 1024)
//   block_tree_min  the minimum of the segment by a balanced tree, in place
//                   over `leaves` (a power of two >= L) shared words: the
//                   up-sweep of lecture 02's Blelloch scan, alone; thread t
//                   loads leaves 2t and 2t + 1 (L <= 2048); out[segment] is
//                   the root
//
// Cost per segment: the erosion 2 comparisons per element a round, ROUNDS
// rounds and ROUNDS + 1 barriers; the tree L - 1 comparisons (for L = 2^m) in
// m steps and m + 1 barriers.
//
//   make lectures && build/lectures/block_min          # runs both on the GPU, checks them
//   build/lectures/block_min --steps 2048               # a Blelloch tree's steps, no GPU needed
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "prng.h"

enum {
  WARP = 32,
  MAX_ERODE = 1024, // the longest eroded segment: one thread per element
  MAX_TREE = 2048,  // the largest tree: two leaves per thread
  ROUNDS = 5,       // rounds of the erosion
  SEGMENTS = 37,    // segments per run
};

// ---------------------------------------------------------------- device

// Each round every position takes the min of itself and its two neighbours
// (clipped to the segment's `count` elements), reading only `from` and writing
// only `to`. Done in place, thread t would read slots t - 1 and t + 1 while
// their owners overwrite them; with two buffers no word is read and written in
// one round, and the barrier at the end of a round orders everything.
static __device__ int block_erode_rounds(int x, int *ping, int *pong, int count) {
  const int t = threadIdx.x;
  int *from = ping, *to = pong;
  from[t] = x;
  __syncthreads(); // every value is in `from` before round 1 reads it
  for (int r = 0; r < ROUNDS; r++) {
    if (t < count) to[t] = min(from[t], min(from[t > 0 ? t - 1 : t], from[t + 1 < count ? t + 1 : t]));
    __syncthreads(); // this round's writes of `to` and reads of `from` before the next round's reverse roles
    int *spare = from;
    from = to;
    to = spare;
  }
  return from[t];
}

// The pairs of stride s are (right - s, right) with right = s (2p + 2) - 1,
// p = 0 .. leaves / (2s) - 1; thread t handles pair p = t. The pairs of one
// stride are disjoint, so a step has no race inside it. The caller has stored
// the leaves and passed a barrier.
static __device__ int block_tree_min_reduce(int *tree, int leaves) {
  const int t = threadIdx.x;
  for (int s = 1; s < leaves; s <<= 1) { // a right node becomes the min of its pair
    if (t < leaves / (2 * s)) {
      const int right = s * (2 * t + 2) - 1;
      tree[right] = min(tree[right], tree[right - s]);
    }
    __syncthreads(); // this level is written before the next one reads it
  }
  return tree[leaves - 1]; // the root: the minimum of every leaf
}

extern "C" __global__ void block_erode(const int *in, int *out, int L) {
  __shared__ int buffers[2 * MAX_ERODE];
  const int t = threadIdx.x;
  const size_t i = (size_t)blockIdx.x * L + t;
  const int y = block_erode_rounds(t < L ? in[i] : INT_MAX, buffers, buffers + MAX_ERODE, L);
  if (t < L) out[i] = y;
}

extern "C" __global__ void block_tree_min(const int *in, int *out, int L, int leaves) {
  __shared__ int tree[MAX_TREE];
  const int t = threadIdx.x;
  const size_t base = (size_t)blockIdx.x * L;
  for (int j = 2 * t; j < 2 * t + 2 && j < leaves; j++) tree[j] = j < L ? in[base + j] : INT_MAX;
  __syncthreads(); // every leaf is stored before the first step reads it
  const int m = block_tree_min_reduce(tree, leaves);
  if (t == 0) out[blockIdx.x] = m;
}

// ---------------------------------------------------------------- host

// The smallest power of two that is >= L and >= 2.
// L - 1 with every bit below its highest one set is one less than that power.
static int tree_leaves(int L) {
  unsigned below = L > 2 ? (unsigned)(L - 1) : 1u;
  for (int shift = 1; shift < 32; shift *= 2) below |= below >> shift;
  return (int)below + 1;
}

// The CPU references: the eroded segments, and each segment's minimum.
static void erode_cpu(const int *in, int *out, size_t n, int L) {
  for (size_t i = 0; i < n; i++) {
    const size_t start = i - i % (size_t)L, end = start + (size_t)L;
    int m = INT_MAX;
    for (size_t j = i >= start + ROUNDS ? i - ROUNDS : start; j <= i + ROUNDS && j < end; j++) m = in[j] < m ? in[j] : m;
    out[i] = m;
  }
}

static void segment_min_cpu(const int *in, int *out, size_t n, int L) {
  for (size_t s = 0; s < n / (size_t)L; s++) {
    int m = INT_MAX;
    for (size_t j = s * L; j < (s + 1) * L; j++) m = in[j] < m ? in[j] : m;
    out[s] = m;
  }
}

// Prints the steps of the Blelloch tree of `leaves` and the threads busy in each.
static int print_steps(const char *arg) {
  char *end;
  long leaves = strtol(arg, &end, 10);
  if (*end || leaves < 2 || leaves > MAX_TREE || (leaves & (leaves - 1))) {
    fprintf(stderr, "block_min: --steps %s: want a power of two from 2 to %d\n", arg, MAX_TREE);
    return 2;
  }
  printf("tree of %ld leaves, %ld threads:\n", leaves, leaves / 2);
  printf("step  phase       stride  busy threads  busy warps\n");
  int step = 0;
  for (long s = 1; s < leaves; s *= 2)
    printf("%4d  up-sweep  %8ld  %12ld  %10ld\n", ++step, s, leaves / (2 * s), (leaves / (2 * s) + WARP - 1) / WARP);
  printf("%4d  clear root %7s  %12d  %10d\n", ++step, "-", 1, 1);
  for (long s = leaves / 2; s >= 1; s /= 2)
    printf("%4d  down-sweep %7ld  %12ld  %10ld\n", ++step, s, leaves / (2 * s), (leaves / (2 * s) + WARP - 1) / WARP);
  return 0;
}

// Runs one version on SEGMENTS segments of L and checks it; returns 1 when wrong.
static int run_one(const char *slug, int L, int tree) {
  const size_t n = (size_t)SEGMENTS * L, outs = tree ? (size_t)SEGMENTS : n;
  int32_t *in = (int32_t *)malloc(n * sizeof(int32_t));
  int *want = (int *)malloc(outs * sizeof(int)), *got = (int *)malloc(outs * sizeof(int));
  if (!in || !want || !got) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  prng_fill_i32((uint64_t)L, in, n, -1000000, 1000000);
  if (tree) segment_min_cpu(in, want, n, L);
  else erode_cpu(in, want, n, L);
  int *d_in = (int *)ex_dev_zeros(n * sizeof(int)), *d_out = (int *)ex_dev_zeros(outs * sizeof(int));
  EX_CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
  EX_CHECK(cudaMemset(d_out, 0xA5, outs * sizeof(int))); // unwritten outputs show up as mismatches
  if (tree) {
    const int leaves = tree_leaves(L), threads = (leaves / 2 + WARP - 1) / WARP * WARP;
    block_tree_min<<<SEGMENTS, threads>>>(d_in, d_out, L, leaves);
  } else {
    block_erode<<<SEGMENTS, (L + WARP - 1) / WARP * WARP>>>(d_in, d_out, L);
  }
  EX_CHECK_LAUNCH();
  EX_CHECK(cudaMemcpy(got, d_out, outs * sizeof(int), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < outs; i++) wrong += got[i] != want[i];
  printf("%-16s L = %4d: %zu of %zu outputs right\n", slug, L, outs - wrong, outs);
  EX_CHECK(cudaFree(d_in));
  EX_CHECK(cudaFree(d_out));
  free(in);
  free(want);
  free(got);
  return wrong != 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--steps")) return print_steps(argv[2]);
  if (argc != 1) {
    fprintf(stderr, "usage: block_min [--steps LEAVES]\n");
    return 2;
  }
  static const int ERODE_LENGTHS[] = {1, 2, 33, 100, 1000, 1024};
  static const int TREE_LENGTHS[] = {1, 3, 33, 1000, 2047, 2048};
  int failed = 0;
  for (size_t i = 0; i < sizeof ERODE_LENGTHS / sizeof *ERODE_LENGTHS; i++)
    failed |= run_one("block_erode", ERODE_LENGTHS[i], 0);
  for (size_t i = 0; i < sizeof TREE_LENGTHS / sizeof *TREE_LENGTHS; i++)
    failed |= run_one("block_tree_min", TREE_LENGTHS[i], 1);
  return failed;
}
