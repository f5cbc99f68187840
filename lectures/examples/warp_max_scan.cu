// warp_max_scan.cu: lecture 01's warp scans, shown on the max operator.
//
// Each warp computes the inclusive running maximum of its 32 values:
// out[i] = max(in[32g], ..., in[i]) for g = i / 32. Two versions, the two ways
// lecture 01 calls correct on every GPU since Volta:
//
//   warp_max_syncwarp   lanes exchange through 32 shared words; __syncwarp()
//                       orders every read and write between rounds
//   warp_max_shfl       lanes read each other's registers with __shfl_up_sync
//
// The identity of max is INT_MIN: lanes past the end of the input hold it and
// still take part, since every lane named in a mask or a __syncwarp() must.
// Cost per warp: 5 rounds, 5 comparisons per lane; the syncwarp version makes
// 1 + 5 * 2 shared accesses per lane and 11 warp barriers, the shuffle version
// none of either.
//
//   make lectures && build/lectures/warp_max_scan     # runs both on the GPU, checks them
//
// `make test` counts the shfl.sync.up and bar.warp.sync lines of the two
// kernels in build/lectures/warp_max_scan.ptx (the numbers lecture 01 gives).
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "prng.h"

enum {
  WARP = 32,
  THREADS = 256, // threads per block: 8 warps
  N = 100003,    // elements: not a multiple of 32, so the last warp is partial
};
static const unsigned FULL_MASK = 0xffffffffu;

// ---------------------------------------------------------------- device

// Round d = 1, 2, 4, 8, 16: every lane takes the max with the lane d below it.
// `slots` is this warp's own 32 words of shared memory.
static __device__ __forceinline__ int warp_max_scan_syncwarp(int x, int *slots) {
  const unsigned lane = threadIdx.x & (WARP - 1);
  slots[lane] = x;
  __syncwarp(); // every lane's first store before any lane's first read
#pragma unroll
  for (unsigned d = 1; d < WARP; d <<= 1) {
    const int below = lane >= d ? slots[lane - d] : INT_MIN;
    __syncwarp(); // write-after-read: every read of this round before any store of it
    x = max(x, below);
    slots[lane] = x;
    __syncwarp(); // read-after-write: every store of this round before the next round's reads
  }
  return x;
}

// The same rounds through registers. __shfl_up_sync gives lane `lane` the x of
// lane `lane - d`; the lanes below d get their own x back. For max that is
// harmless (max(x, x) == x), for + it would count x twice, so the guard stays:
// it keeps the code right for any operator.
static __device__ __forceinline__ int warp_max_scan_shfl(int x) {
  const unsigned lane = threadIdx.x & (WARP - 1);
#pragma unroll
  for (unsigned d = 1; d < WARP; d <<= 1) {
    const int below = __shfl_up_sync(FULL_MASK, x, d);
    if (lane >= d) x = max(x, below);
  }
  return x;
}

// One thread per element; the kernels are extern "C" so that the tests find
// them by name in the PTX.
extern "C" __global__ void warp_max_syncwarp(const int *in, int *out, int n) {
  __shared__ int slots[THREADS];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = warp_max_scan_syncwarp(i < n ? in[i] : INT_MIN, slots + (threadIdx.x & ~(WARP - 1)));
  if (i < n) out[i] = y;
}

extern "C" __global__ void warp_max_shfl(const int *in, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = warp_max_scan_shfl(i < n ? in[i] : INT_MIN);
  if (i < n) out[i] = y;
}

// ---------------------------------------------------------------- host

// The CPU reference: the running maximum, restarted every 32 elements.
static void warp_max_cpu(const int *in, int *out, int n) {
  int m = INT_MIN;
  for (int i = 0; i < n; i++) {
    if (i % WARP == 0) m = INT_MIN;
    m = in[i] > m ? in[i] : m;
    out[i] = m;
  }
}

typedef void (*warp_kernel)(const int *, int *, int);
static const struct {
  const char *slug;
  warp_kernel kernel;
} VERSIONS[] = {
    {"warp_max_syncwarp", warp_max_syncwarp},
    {"warp_max_shfl", warp_max_shfl},
};

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "warp_max_scan: takes no arguments; it runs both versions on the GPU and checks them\n");
    return 2;
  }
  int32_t *in = (int32_t *)malloc(N * sizeof(int32_t));
  if (!in) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  prng_fill_i32(1, in, N, -1000000, 1000000);
  int *want = (int *)malloc(N * sizeof(int)), *got = (int *)malloc(N * sizeof(int));
  if (!want || !got) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  warp_max_cpu(in, want, N);
  int *d_in = (int *)ex_dev_zeros(N * sizeof(int)), *d_out = (int *)ex_dev_zeros(N * sizeof(int));
  EX_CHECK(cudaMemcpy(d_in, in, N * sizeof(int), cudaMemcpyHostToDevice));
  int failed = 0;
  for (size_t v = 0; v < sizeof VERSIONS / sizeof *VERSIONS; v++) {
    EX_CHECK(cudaMemset(d_out, 0xA5, N * sizeof(int))); // unwritten outputs show up as mismatches
    VERSIONS[v].kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, N);
    EX_CHECK_LAUNCH();
    EX_CHECK(cudaMemcpy(got, d_out, N * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0, first = -1;
    for (int i = 0; i < N; i++)
      if (got[i] != want[i] && wrong++ == 0) first = i;
    printf("%-18s %d of %d outputs right%s", VERSIONS[v].slug, N - wrong, N, wrong ? "" : "\n");
    if (wrong) printf(", first wrong at %d: %d, want %d\n", first, got[first], want[first]);
    failed |= wrong != 0;
  }
  EX_CHECK(cudaFree(d_in));
  EX_CHECK(cudaFree(d_out));
  free(in);
  free(want);
  free(got);
  return failed;
}
