// app_scan.h: the scans that lecture 06's examples (app_*.cu) build on: a
// warp's inclusive sum by shuffles, a block's exclusive sum, and a one-block
// kernel that scans a short array of counts. One copy, included by each
// example, so compaction, radix sort and binning share the same scan.
#ifndef SCANLAB_APP_SCAN_H
#define SCANLAB_APP_SCAN_H

#include "example.h"

enum {
  APP_WARP = 32,           // threads per warp on every GPU of the course
  APP_SCAN_THREADS = 1024, // the one-block scan's block
};

// Inclusive sum of x over the lanes 0..lane of this warp: five shuffle steps
// (distance 1, 2, 4, 8, 16), no shared memory. Every lane of the warp calls it.
static __device__ __forceinline__ unsigned app_warp_inclusive_sum(unsigned x) {
  const unsigned lane = threadIdx.x % APP_WARP;
#pragma unroll
  for (unsigned dist = 1; dist < APP_WARP; dist *= 2) {
    const unsigned below = __shfl_up_sync(0xffffffffu, x, dist); // lane - dist's running sum
    x += lane >= dist ? below : 0u;
  }
  return x;
}

// Exclusive sum of x over the threads of the block, in thread order: thread t
// gets x(0) + ... + x(t-1), and *total the sum of all. blockDim.x is a multiple
// of 32, at most 1024; every thread of the block calls it (it has barriers).
// spare: APP_WARP + 1 unsigned of shared memory.
static __device__ __forceinline__ unsigned app_block_exclusive_sum(unsigned x, unsigned *spare, unsigned *total) {
  const unsigned lane = threadIdx.x % APP_WARP, warp = threadIdx.x / APP_WARP;
  const unsigned inclusive = app_warp_inclusive_sum(x);
  if (lane == APP_WARP - 1) spare[warp] = inclusive; // each warp's total
  __syncthreads(); // orders: the warp totals are written before warp 0 reads them
  if (warp == 0) {
    const unsigned mine = lane < blockDim.x / APP_WARP ? spare[lane] : 0u;
    const unsigned upto = app_warp_inclusive_sum(mine);
    spare[lane] = upto - mine; // what the warps before warp `lane` hold
    if (lane == APP_WARP - 1) spare[APP_WARP] = upto;
  }
  __syncthreads(); // orders: warp 0's offsets are written before every warp reads its own
  const unsigned before = spare[warp] + inclusive - x;
  *total = spare[APP_WARP];
  __syncthreads(); // orders: everyone has read `spare` before a next call overwrites it
  return before;
}

// The sum of x over the block (the total of the exclusive sum), in every thread.
static __device__ __forceinline__ unsigned app_block_sum(unsigned x, unsigned *spare) {
  unsigned total;
  app_block_exclusive_sum(x, spare, &total);
  return total;
}

// One block of APP_SCAN_THREADS scans counts[0..m) into offsets[0..m] in
// place of a multi-block scan (lecture 05): offsets[i] = counts[0] + ... +
// counts[i-1], and offsets[m] = the total. It walks the array in chunks of
// one element per thread, carrying the running total: m / 1024 rounds, fine
// for the few thousand counts of these examples, too slow for millions.
extern "C" __global__ void app_scan_counts(const unsigned *counts, unsigned *offsets, unsigned m) {
  __shared__ unsigned spare[APP_WARP + 1];
  unsigned carry = 0; // the sum of every earlier chunk, the same in all threads
  for (unsigned base = 0; base < m; base += blockDim.x) {
    const unsigned i = base + threadIdx.x;
    unsigned chunk_total;
    const unsigned before = app_block_exclusive_sum(i < m ? counts[i] : 0u, spare, &chunk_total);
    if (i < m) offsets[i] = carry + before;
    carry += chunk_total;
  }
  if (threadIdx.x == 0) offsets[m] = carry;
}

// Launches app_scan_counts on m counts (m + 1 offsets) and checks the launch.
static inline void app_scan_counts_run(const unsigned *d_counts, unsigned *d_offsets, unsigned m) {
  app_scan_counts<<<1, APP_SCAN_THREADS>>>(d_counts, d_offsets, m);
  EX_CHECK(cudaGetLastError());
}

// A small portable generator (splitmix64), so every machine gets the same
// inputs: never the C library's rand().
static inline unsigned long long app_next(unsigned long long *state) {
  unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// malloc, checked: out of host memory is a one-line error and exit 1.
#define APP_HOST_ALLOC(bytes) app_host_alloc((bytes), __FILE__, __LINE__)
static inline void *app_host_alloc(size_t bytes, const char *file, int line) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "%s:%d: out of host memory (%zu bytes)\n", file, line, bytes);
    exit(1);
  }
  return p;
}

// cudaFree, checked, of each of n device buffers.
static inline void app_dev_free_all(void *const *buffers, size_t n) {
  for (size_t i = 0; i < n; i++) EX_CHECK(cudaFree(buffers[i]));
}

// qsort's comparison for unsigned keys (the CPU references sort with it).
static int app_compare_unsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static int app_compare_floats(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

// The median of reps timings (ms), sorting them in place.
static inline float app_median(float *ms, int reps) {
  qsort(ms, (size_t)reps, sizeof *ms, app_compare_floats);
  return ms[reps / 2];
}

// The median time (ms) of reps calls of run(arg), after one untimed call
// (warm-up); CUDA events around each call. A fault shows at the event's
// synchronization, checked.
static inline float app_time(void (*run)(void *), void *arg, int reps) {
  float ms[64];
  cudaEvent_t start, stop;
  if (reps > 64) reps = 64;
  EX_CHECK(cudaEventCreate(&start));
  EX_CHECK(cudaEventCreate(&stop));
  run(arg);
  EX_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; r++) {
    EX_CHECK(cudaEventRecord(start));
    run(arg);
    EX_CHECK(cudaEventRecord(stop));
    EX_CHECK(cudaEventSynchronize(stop));
    EX_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
  }
  EX_CHECK(cudaEventDestroy(start));
  EX_CHECK(cudaEventDestroy(stop));
  return app_median(ms, reps);
}

#endif
