// block_max_scan.cu: lecture 02's two block scans, shown on the max operator.
//
// A batch of segments of L ints, one block per segment, each scanned on its own
// with max (identity INT_MIN):
//
//   block_hs_max        inclusive Hillis-Steele: ceil(log2 L) rounds over two
//                       shared buffers that swap roles, one barrier per round;
//                       thread t holds element t (L <= 1024)
//   block_blelloch_max  exclusive Blelloch: up-sweep, root cleared to the
//                       identity, down-sweep, in place over a tree of `leaves`
//                       (a power of two >= L); thread t loads elements 2t and
//                       2t + 1 (L <= 2048); no padding, so it has the bank
//                       conflicts of lecture 03
//
// Cost per segment of L = 2^m: Hillis-Steele L m - L + 1 comparisons in m
// rounds; Blelloch 2(L - 1) in 2m steps.
//
//   make lectures && build/lectures/block_max_scan          # runs both on the GPU, checks them
//   build/lectures/block_max_scan --steps 2048               # the tree's steps, no GPU needed
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "prng.h"

enum {
  WARP = 32,
  MAX_HS = 1024,       // the longest Hillis-Steele segment: one thread per element
  MAX_TREE = 2048,     // the largest Blelloch tree: two leaves per thread
  SEGMENTS = 37,       // segments per run
};

// ---------------------------------------------------------------- device

// Round d = 1, 2, 4, ...: every position takes the max with the one d below it,
// reading only `from` and writing only `to`, so no word is read and written in
// one round. Positions below d copy their value, since `to` still holds the
// round before last.
static __device__ int block_hs_max_scan(int x, int *ping, int *pong, int count) {
  const int t = threadIdx.x;
  int *from = ping, *to = pong;
  from[t] = x;
  __syncthreads(); // every value is in `from` before round 1 reads it
  for (int d = 1; d < count; d <<= 1) {
    to[t] = t >= d ? max(from[t], from[t - d]) : from[t];
    __syncthreads(); // this round's writes of `to` and reads of `from` before the next round's reverse roles
    int *spare = from;
    from = to;
    to = spare;
  }
  return from[t];
}

// The pairs of stride s are (right - s, right) with right = s (2p + 2) - 1,
// p = 0 .. leaves / (2s) - 1; thread t handles pair p = t. The caller has
// stored the leaves and passed a barrier.
static __device__ void block_blelloch_max_scan(int *tree, int leaves) {
  const int t = threadIdx.x;
  for (int s = 1; s < leaves; s <<= 1) { // up-sweep: a right node becomes the max of its pair
    if (t < leaves / (2 * s)) {
      const int right = s * (2 * t + 2) - 1;
      tree[right] = max(tree[right], tree[right - s]);
    }
    __syncthreads(); // this level is written before the next one reads it
  }
  if (t == 0) tree[leaves - 1] = INT_MIN; // the identity at the root makes the result exclusive
  for (int s = leaves / 2; s >= 1; s >>= 1) { // down-sweep: pass each prefix to both children
    __syncthreads(); // the level above (or the root) is written before this one reads it
    if (t < leaves / (2 * s)) {
      const int right = s * (2 * t + 2) - 1, left = right - s;
      const int left_max = tree[left];
      tree[left] = tree[right];                  // the left child's prefix: what came before the pair
      tree[right] = max(tree[right], left_max); // the right child's: that and the left subtree
    }
  }
  __syncthreads(); // the last level is written before the results are read
}

extern "C" __global__ void block_hs_max(const int *in, int *out, int L) {
  __shared__ int buffers[2 * MAX_HS];
  const int t = threadIdx.x;
  const size_t i = (size_t)blockIdx.x * L + t;
  const int y = block_hs_max_scan(t < L ? in[i] : INT_MIN, buffers, buffers + MAX_HS, L);
  if (t < L) out[i] = y;
}

extern "C" __global__ void block_blelloch_max(const int *in, int *out, int L, int leaves) {
  __shared__ int tree[MAX_TREE];
  const int t = threadIdx.x;
  const size_t base = (size_t)blockIdx.x * L;
  for (int j = 2 * t; j < 2 * t + 2 && j < leaves; j++) tree[j] = j < L ? in[base + j] : INT_MIN;
  __syncthreads(); // every leaf is stored before the up-sweep reads it
  block_blelloch_max_scan(tree, leaves);
  for (int j = 2 * t; j < 2 * t + 2 && j < L; j++) out[base + j] = tree[j];
}

// ---------------------------------------------------------------- host

// The smallest power of two that is >= L and >= 2.
static int tree_leaves(int L) {
  int leaves = 2;
  while (leaves < L) leaves *= 2;
  return leaves;
}

// The CPU reference: the running maximum of each segment, inclusive or exclusive.
static void block_max_cpu(const int *in, int *out, size_t n, int L, int exclusive) {
  int m = INT_MIN;
  for (size_t i = 0; i < n; i++) {
    if (i % (size_t)L == 0) m = INT_MIN;
    if (exclusive) out[i] = m;
    m = in[i] > m ? in[i] : m;
    if (!exclusive) out[i] = m;
  }
}

// Prints the steps of the Blelloch tree of `leaves` and the threads busy in each.
static int print_steps(const char *arg) {
  char *end;
  long leaves = strtol(arg, &end, 10);
  if (*end || leaves < 2 || leaves > MAX_TREE || (leaves & (leaves - 1))) {
    fprintf(stderr, "block_max_scan: --steps %s: want a power of two from 2 to %d\n", arg, MAX_TREE);
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
static int run_one(const char *slug, int L, int exclusive) {
  const size_t n = (size_t)SEGMENTS * L;
  int32_t *in = (int32_t *)malloc(n * sizeof(int32_t));
  if (!in) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  prng_fill_i32((uint64_t)L, in, n, -1000000, 1000000);
  int *want = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
  if (!want || !got) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  block_max_cpu(in, want, n, L, exclusive);
  int *d_in = (int *)ex_dev_zeros(n * sizeof(int)), *d_out = (int *)ex_dev_zeros(n * sizeof(int));
  EX_CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
  EX_CHECK(cudaMemset(d_out, 0xA5, n * sizeof(int))); // unwritten outputs show up as mismatches
  if (exclusive) {
    const int leaves = tree_leaves(L), threads = (leaves / 2 + WARP - 1) / WARP * WARP;
    block_blelloch_max<<<SEGMENTS, threads>>>(d_in, d_out, L, leaves);
  } else {
    block_hs_max<<<SEGMENTS, (L + WARP - 1) / WARP * WARP>>>(d_in, d_out, L);
  }
  EX_CHECK_LAUNCH();
  EX_CHECK(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < n; i++) wrong += got[i] != want[i];
  printf("%-20s L = %4d: %zu of %zu outputs right\n", slug, L, n - wrong, n);
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
    fprintf(stderr, "usage: block_max_scan [--steps LEAVES]\n");
    return 2;
  }
  static const int HS_LENGTHS[] = {1, 2, 33, 100, 1000, 1024};
  static const int TREE_LENGTHS[] = {1, 3, 33, 1000, 2047, 2048};
  int failed = 0;
  for (size_t i = 0; i < sizeof HS_LENGTHS / sizeof *HS_LENGTHS; i++) failed |= run_one("block_hs_max", HS_LENGTHS[i], 0);
  for (size_t i = 0; i < sizeof TREE_LENGTHS / sizeof *TREE_LENGTHS; i++)
    failed |= run_one("block_blelloch_max", TREE_LENGTHS[i], 1);
  return failed;
}
