// warp_min_reduce.cu: lecture 01's two ways for the lanes of a warp to
// exchange values correctly since Volta, shown on a warp-wide minimum.
//
// Each warp reduces its 32 values to their minimum, and every lane of the warp
// gets it: out[i] = min(in[32g], ..., in[32g + 31]) for g = i / 32. It is a
// reduction (a tree that halves every round), not a scan. Two versions:
//
//   warp_min_syncwarp   lanes exchange through 32 shared words; __syncwarp()
//                       orders the rounds
//   warp_min_shfl       lanes read each other's registers with __shfl_xor_sync
//                       (a butterfly: every lane ends with the minimum)
//
// The identity of min is INT_MAX: lanes past the end of the input hold it and
// still take part, since every lane named in a mask or a __syncwarp() must.
// Cost per warp: 5 rounds, 5 comparisons on the busiest lane; the syncwarp
// version has 1 + 5 * 2 + 1 = 12 shared accesses in its PTX (lane 0 makes all
// of them) and 6 warp barriers, the shuffle version 5 shuffles and neither.
//
//   make lectures && build/lectures/warp_min_reduce     # runs both on the GPU, checks them
//
// `make test` counts the shfl.sync.bfly, bar.warp.sync and shared-memory lines
// of the two kernels in build/lectures/warp_min_reduce.ptx (the numbers
// lecture 01 gives).
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

// Round d = 16, 8, 4, 2, 1: lane l < d takes the min of its value and slot l + d.
// A round reads slots d .. 2d - 1 and writes slots 0 .. d - 1, so no slot is
// both read and written in one round: one barrier per round, after the writes,
// is all the ordering it needs. `slots` is this warp's own 32 words.
static __device__ __forceinline__ int warp_min_reduce_syncwarp(int x, int *slots) {
  const unsigned lane = threadIdx.x & (WARP - 1);
  slots[lane] = x;
  __syncwarp(); // every lane's value is stored before round 16 reads it
#pragma unroll
  for (unsigned d = WARP / 2; d >= 1; d >>= 1) {
    if (lane < d) { // the lane's own running minimum stays in x: one load, one store a round
      x = min(x, slots[lane + d]);
      slots[lane] = x;
    }
    __syncwarp(); // read-after-write: this round's stores before the next round's loads
  }
  return slots[0]; // every lane reads the result, after the last round's barrier
}

// The same tree through registers, as a butterfly: in round d every lane takes
// the min with lane (lane XOR d), so after 5 rounds every lane holds the
// minimum of all 32. Every lane has a partner in every round: no lane is left
// out, and no lane gets its own value back.
static __device__ __forceinline__ int warp_min_reduce_shfl(int x) {
#pragma unroll
  for (unsigned d = WARP / 2; d >= 1; d >>= 1) x = min(x, __shfl_xor_sync(FULL_MASK, x, d));
  return x;
}

// One thread per element; the kernels are extern "C" so that the tests find
// them by name in the PTX.
extern "C" __global__ void warp_min_syncwarp(const int *in, int *out, int n) {
  __shared__ int slots[THREADS];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = warp_min_reduce_syncwarp(i < n ? in[i] : INT_MAX, slots + (threadIdx.x & ~(WARP - 1)));
  if (i < n) out[i] = y;
}

extern "C" __global__ void warp_min_shfl(const int *in, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = warp_min_reduce_shfl(i < n ? in[i] : INT_MAX);
  if (i < n) out[i] = y;
}

// ---------------------------------------------------------------- host

// The CPU reference: the minimum of each group of 32, written to every element
// of the group.
static void warp_min_cpu(const int *in, int *out, int n) {
  for (int g = 0; g < n; g += WARP) {
    int m = INT_MAX;
    for (int i = g; i < g + WARP && i < n; i++) m = in[i] < m ? in[i] : m;
    for (int i = g; i < g + WARP && i < n; i++) out[i] = m;
  }
}

typedef void (*warp_kernel)(const int *, int *, int);
static const struct {
  const char *slug;
  warp_kernel kernel;
} VERSIONS[] = {
    {"warp_min_syncwarp", warp_min_syncwarp},
    {"warp_min_shfl", warp_min_shfl},
};

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "warp_min_reduce: takes no arguments; it runs both versions on the GPU and checks them\n");
    return 2;
  }
  int32_t *in = (int32_t *)malloc(N * sizeof(int32_t));
  int *want = (int *)malloc(N * sizeof(int)), *got = (int *)malloc(N * sizeof(int));
  if (!in || !want || !got) {
    fprintf(stderr, "out of host memory\n");
    return 3;
  }
  prng_fill_i32(1, in, N, -1000000, 1000000);
  warp_min_cpu(in, want, N);
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
