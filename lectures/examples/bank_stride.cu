// bank_stride.cu: lecture 03's experiment. How long does a warp's shared-memory
// load take when its 32 lanes read words `stride` apart?
//
// Each lane reads word lane * stride + j for j = 0..63, again and again. The
// 32 words of one load fall into 32 / gcd(stride, 32) banks, gcd(stride, 32)
// words in each, so the load takes gcd(stride, 32) passes (stride 0: every lane
// reads the same word: one pass, a broadcast). The program prints, for each
// stride, the passes the CPU count of banks.h predicts next to the time the GPU
// took, relative to stride 1, as CSV that lectures/figures/bank-stride.gp plots:
//
//   make lectures && build/lectures/bank_stride > lectures/data/bank-stride-<gpu>.csv
//   make figures
//
// Every block loads from its own shared array and nothing else, so the time is
// the shared-memory pipeline's: one pass per clock per SM, 32 banks x 4 bytes.
#include <stdio.h>
#include <string.h>

#include "banks.h"
#include "example.h"
#include "stats.h"

enum {
  WORDS = 4096,   // the shared array: 16 KiB, more than lane 31 reads at stride 64
  INNER = 64,     // loads per pass of the inner loop (unrolled: immediate offsets)
  OUTER = 256,    // passes of the inner loop
  THREADS = 1024, // threads per block
  REPS = 20,      // timed launches per stride (median)
};

// Thread t of a warp reads words t * stride + 0..63 through a volatile pointer,
// so that every load in the source is a load in the machine code (none is
// hoisted out of the loop or merged). The sum goes to out so nothing is dead.
__global__ void strided_loads(int stride, unsigned *out) {
  __shared__ unsigned smem[WORDS];
  for (int i = threadIdx.x; i < WORDS; i += blockDim.x) smem[i] = (unsigned)i;
  __syncthreads(); // the array is filled before any warp reads it
  volatile unsigned *words = smem + (threadIdx.x % 32) * stride;
  unsigned sum = 0;
  for (int o = 0; o < OUTER; o++) {
#pragma unroll
    for (int j = 0; j < INNER; j++) sum += words[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The passes one load of the kernel takes, by the CPU count (banks.h).
static int model_passes(int stride) {
  int words[BANK_WARP];
  for (int l = 0; l < BANK_WARP; l++) words[l] = l * stride;
  return bank_ways(words, NULL);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    fprintf(stderr, "%s: takes no arguments (%s): it prints CSV for lecture 03 on the GPU present\n", argv[0],
            strcmp(argv[1], "--help") ? "unknown argument" : "usage");
    return 2;
  }
  static const int STRIDES[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64};
  const int n_strides = (int)(sizeof STRIDES / sizeof *STRIDES);

  cudaDeviceProp prop;
  int runtime = 0, per_sm = 0;
  EX_CHECK(cudaGetDeviceProperties(&prop, 0));
  EX_CHECK(cudaRuntimeGetVersion(&runtime));
  EX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, strided_loads, THREADS, 0));
  const int blocks = per_sm * prop.multiProcessorCount; // every SM busy, one wave
  unsigned *d_out = (unsigned *)ex_dev_zeros((size_t)blocks * THREADS * sizeof(unsigned));
  cudaEvent_t start, stop;
  EX_CHECK(cudaEventCreate(&start));
  EX_CHECK(cudaEventCreate(&stop));

  printf("# lecture 03, bank_stride: %s (sm_%d%d, %d SMs), CUDA runtime %d.%d\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, runtime / 1000, runtime % 1000 / 10);
  printf("# %d blocks of %d threads, each thread %d shared loads; median of %d launches\n", blocks, THREADS,
         INNER * OUTER, REPS);
  printf("stride,model_passes,median_ms,x_stride1\n");
  double med[sizeof STRIDES / sizeof *STRIDES], base_ms = 0;
  for (int s = 0; s < n_strides; s++) {
    double ms[REPS];
    strided_loads<<<blocks, THREADS>>>(STRIDES[s], d_out); // warm-up
    EX_CHECK(cudaGetLastError());
    for (int r = 0; r < REPS; r++) {
      EX_CHECK(cudaEventRecord(start));
      strided_loads<<<blocks, THREADS>>>(STRIDES[s], d_out);
      EX_CHECK(cudaGetLastError());
      EX_CHECK(cudaEventRecord(stop));
      EX_CHECK(cudaEventSynchronize(stop));
      float f;
      EX_CHECK(cudaEventElapsedTime(&f, start, stop));
      ms[r] = f;
    }
    med[s] = stats_median(ms, REPS);
    if (STRIDES[s] == 1) base_ms = med[s];
  }
  for (int s = 0; s < n_strides; s++)
    printf("%d,%d,%.4f,%.2f\n", STRIDES[s], model_passes(STRIDES[s]), med[s], med[s] / base_ms);
  EX_CHECK(cudaEventDestroy(start));
  EX_CHECK(cudaEventDestroy(stop));
  EX_CHECK(cudaFree(d_out));
  return 0;
}
