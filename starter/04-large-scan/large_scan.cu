// large_scan.cu (starter, assignment 04): a multi-block exclusive scan with
// mistakes that multi-block scans are often written with. It compiles and
// runs; it is right for n up to two tiles (2 * STARTER_TILE elements) and
// wrong after. Task 1 of the handout: find both of its bugs and explain them.
//
// Then replace it: exclusive_scan becomes your single-pass scan with decoupled
// look-back (graded), and each of the other entry points the strategy its name
// says. Keep the names and signatures: large_scan.h is the contract.
#include "large_scan.h"

// Each block scans STARTER_TILE elements, one per thread, in shared memory.
#define STARTER_THREADS STARTER_TILE

// Returns the first CUDA error of a call or a launch to the caller.
#define STARTER_TRY(call)                                                                                              \
  do {                                                                                                                 \
    cudaError_t starter_err_ = (call);                                                                                 \
    if (starter_err_ != cudaSuccess) return starter_err_;                                                              \
  } while (0)

static size_t starter_tiles(size_t n) { return (n + STARTER_TILE - 1) / STARTER_TILE; }

// Block b scans tile b: a Hillis-Steele scan over two shared-memory buffers
// (log2(1024) = 10 steps), then writes the exclusive results and the tile's
// total to totals[b].
static __global__ void starter_scan_tiles(const unsigned *in, unsigned *out, size_t n, unsigned *totals) {
  __shared__ unsigned buf[2][STARTER_THREADS];
  int t = threadIdx.x;
  size_t i = (size_t)blockIdx.x * STARTER_TILE + t;
  unsigned x = i < n ? in[i] : 0;
  int cur = 0;
  buf[cur][t] = x;
  __syncthreads();
  for (int d = 1; d < STARTER_THREADS; d *= 2) {
    unsigned v = buf[cur][t] + (t >= d ? buf[cur][t - d] : 0);
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t] - x; // inclusive minus own value: exclusive
  if (t == STARTER_THREADS - 1) totals[blockIdx.x] = buf[cur][t];
  // __syncthreads() waits for every block, so from here on each block's total
  // is in memory and the next block can add it safely.
  __syncthreads();
}

// Adds the tile totals to make the block-local scans one scan of the array.
static __global__ void starter_add_totals(unsigned *out, size_t n, const unsigned *totals) {
  size_t i = (size_t)blockIdx.x * STARTER_TILE + threadIdx.x;
  if (i < n && blockIdx.x > 0) out[i] += totals[blockIdx.x - 1];
}

size_t exclusive_scan_workspace(size_t n) { return starter_tiles(n) * sizeof(unsigned); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  unsigned tiles = (unsigned)starter_tiles(n);
  unsigned *totals = (unsigned *)d_work;
  starter_scan_tiles<<<tiles, STARTER_THREADS>>>(d_in, d_out, n, totals);
  STARTER_TRY(cudaGetLastError());
  starter_add_totals<<<tiles, STARTER_THREADS>>>(d_out, n, totals);
  return cudaGetLastError();
}

// TODO(student): task 2, the hierarchical scan: scan the tiles, scan the tile
// sums recursively, add them back (about 25 lines with its kernels).
cudaError_t exclusive_scan_hierarchical(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return exclusive_scan(d_in, d_out, n, d_work);
}

// TODO(student): task 3b, your look-back with a separate flag and value,
// published with st.release and read with ld.acquire (about 20 lines more).
cudaError_t exclusive_scan_lookback_acqrel(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return exclusive_scan(d_in, d_out, n, d_work);
}

// TODO(student): task 5, reduce-then-scan: sum each tile, scan the sums, scan
// each tile again from its sum (about 30 lines).
cudaError_t exclusive_scan_reduce_then_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return exclusive_scan(d_in, d_out, n, d_work);
}

// TODO(student): task 4: the bytes your find_repeats needs.
size_t find_repeats_workspace(size_t n) {
  (void)n;
  return 0;
}

// TODO(student): task 4, find_repeats as a stream compaction on your scan
// (about 40 lines).
cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  return cudaErrorNotYetImplemented;
}
