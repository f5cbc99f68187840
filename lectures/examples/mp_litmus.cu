// mp_litmus.cu: lecture 01's message-passing litmus test, run on the GPU.
//
// A writer thread stores data = 1, then flag = 1. A reader thread in another
// block, on another SM, loads flag, then data. Under sequential consistency
// (some interleaving of the two threads, each in program order) the reader
// can never see flag = 1 and data = 0: that outcome needs reordering. Each
// variant below is run for LAUNCHES x TRIALS writer/reader pairs, and the
// program counts the four outcomes (r1 = flag, r2 = data):
//
//   volatile_flag_only      a volatile flag, a plain data word, no fence: the
//                           classic bug. Nothing stops the compiler or the
//                           memory system from reordering the data access past
//                           the flag access: flag 1 / data 0 may be seen
//   volatile_both           data volatile too, still no fence: the compiler
//                           keeps program order, but nothing orders the two
//                           accesses in the memory system: may be seen
//   fences                  plain data, volatile flag, and __threadfence()
//                           between the stores and between the loads (a fence on
//                           each side): forbidden
//   release_acquire         plain data, the flag stored with release and loaded
//                           with acquire (cuda::atomic_ref, device scope):
//                           forbidden
//   reader_in_writer_order  volatile, no fence, and the reader loads data first,
//                           then the flag: flag 1 / data 0 is now allowed by SC
//                           (the reader read data before the writer's stores)
//                           and shows interleaving, not reordering
//
// To see both sides of the race the reader spins on the flag for a while (so
// r1 is mostly 1), and extra "stress" blocks keep the memory system busy with
// scattered stores, which makes reordering more likely when it is allowed.
// Every trial has its own data and flag words, each in its own 128-byte line,
// in two different arrays.
//
//   make lectures && build/lectures/mp_litmus > lectures/data/mp-litmus-<gpu>.csv
//
// The program prints CSV; the GPU tier checks that the flag 1 / data 0 column
// is 0 for fences and release_acquire. A count of 0 does not prove an outcome
// impossible; the memory model does (lecture 01).
#include <stdio.h>
#include <string.h>

#include <cuda/atomic>

#include "example.h"

enum {
  TRIALS = 8192,      // writer/reader pairs per launch
  LAUNCHES = 100,     // launches per variant: 819,200 trials
  THREADS = 256,      // threads per block; each writer or reader thread has one trial
  LINE = 32,          // ints per 128-byte line: one trial's word per line
  SPIN = 1 << 16,     // the most flag loads a reader makes before it gives up (r1 = 0)
  STRESS_BLOCKS = 32, // blocks of scattered stores running beside the test
  STRESS_WORDS = 1 << 22,
  STRESS_ITERS = 256,
};

enum variant { VOLATILE_FLAG_ONLY, VOLATILE_BOTH, FENCES, RELEASE_ACQUIRE, READER_IN_WRITER_ORDER, N_VARIANTS };
static const char *const SLUGS[N_VARIANTS] = {"volatile_flag_only", "volatile_both", "fences", "release_acquire",
                                              "reader_in_writer_order"};
// Whether sequential consistency allows the outcome flag = 1, data = 0.
static const char *const SC_ALLOWS[N_VARIANTS] = {"no", "no", "no", "no", "yes"};

// Outcome index of (r1 = flag, r2 = data): 0 = (0,0), 1 = (0,1), 2 = (1,1), 3 = (1,0).
static __device__ int outcome(int r1, int r2) { return r1 ? (r2 ? 2 : 3) : (r2 ? 1 : 0); }

// The writer's two stores for trial i.
static __device__ void write_trial(int v, int *data, int *flag) {
  volatile int *vf = flag;
  switch (v) {
  case VOLATILE_FLAG_ONLY: // the plain store may be moved after the volatile one, or reach memory after it
    *data = 1;
    *vf = 1;
    break;
  case FENCES:
    *data = 1;
    __threadfence(); // orders the data store before the flag store, as every thread of the GPU sees them
    *vf = 1;
    break;
  case RELEASE_ACQUIRE:
    *data = 1;
    // Release: the data store (every earlier access of this thread) is visible
    // to a thread that acquires this flag value.
    cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
    break;
  default: // VOLATILE_BOTH, READER_IN_WRITER_ORDER: compiled in order, not ordered in memory
    *(volatile int *)data = 1;
    *vf = 1;
  }
}

// Spins until the flag reads 1 (at most SPIN loads); returns the last value read.
static __device__ int wait_flag(int v, int *flag) {
  int r1 = 0;
  if (v == RELEASE_ACQUIRE) {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    // Acquire: the data load after this cannot be satisfied before this load.
    for (int s = 0; s < SPIN && !r1; s++) r1 = f.load(cuda::memory_order_acquire);
  } else {
    for (int s = 0; s < SPIN && !r1; s++) r1 = *(volatile int *)flag;
  }
  return r1;
}

// The reader's two loads for trial i, returning the outcome.
static __device__ int read_trial(int v, int *data, int *flag) {
  if (v == READER_IN_WRITER_ORDER) {
    int r2 = *(volatile int *)data; // data first: SC lets it be 0 even when the flag is then 1
    return outcome(wait_flag(v, flag), r2);
  }
  int r1 = wait_flag(v, flag);
  if (v == FENCES) __threadfence(); // orders the flag load before the data load
  int r2 = v == VOLATILE_BOTH ? *(volatile int *)data : *data; // plain: may be hoisted or served early
  return outcome(r1, r2);
}

// Blocks [0, W) write, [W, 2W) read the same trials, the rest stress memory.
// All blocks fit on the GPU at once (checked on the host), so a spinning reader
// never waits for a writer that has not started.
extern "C" __global__ void litmus(int v, int *data, int *flag, unsigned long long *counts, int *stress) {
  const int writer_blocks = TRIALS / THREADS;
  if (blockIdx.x >= 2 * writer_blocks) { // stress: scattered stores, one line apart
    unsigned x = blockIdx.x * THREADS + threadIdx.x;
    for (int k = 0; k < STRESS_ITERS; k++) {
      x = x * 1664525u + 1013904223u; // a linear congruential step: a new line each time
      ((volatile int *)stress)[(x >> 8) % (STRESS_WORDS / LINE) * LINE] = k;
    }
    return;
  }
  const bool writer = blockIdx.x < writer_blocks;
  const int i = (blockIdx.x % writer_blocks) * THREADS + threadIdx.x;
  int *d = data + (size_t)i * LINE, *f = flag + (size_t)i * LINE;
  if (writer) write_trial(v, d, f);
  else atomicAdd(&counts[read_trial(v, d, f)], 1ULL);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    fprintf(stderr, "%s: takes no arguments (%s): it prints CSV for lecture 01 on the GPU present\n", argv[0],
            strcmp(argv[1], "--help") ? "unknown argument" : "usage");
    return 2;
  }
  cudaDeviceProp prop;
  int runtime = 0, per_sm = 0;
  EX_CHECK(cudaGetDeviceProperties(&prop, 0));
  EX_CHECK(cudaRuntimeGetVersion(&runtime));
  EX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, litmus, THREADS, 0));
  const int blocks = 2 * (TRIALS / THREADS) + STRESS_BLOCKS;
  if (blocks > per_sm * prop.multiProcessorCount) {
    fprintf(stderr, "%s: needs %d blocks on the GPU at once, %s holds %d\n", argv[0], blocks, prop.name,
            per_sm * prop.multiProcessorCount);
    return 3;
  }
  const size_t words = (size_t)TRIALS * LINE;
  int *data = (int *)ex_dev_zeros(words * sizeof(int)), *flag = (int *)ex_dev_zeros(words * sizeof(int));
  int *stress = (int *)ex_dev_zeros((size_t)STRESS_WORDS * sizeof(int));
  unsigned long long *counts = (unsigned long long *)ex_dev_zeros(N_VARIANTS * 4 * sizeof(unsigned long long));
  EX_CHECK(cudaMemset(counts, 0, N_VARIANTS * 4 * sizeof(unsigned long long)));

  printf("# lecture 01, mp_litmus: %s (sm_%d%d, %d SMs), CUDA runtime %d.%d\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, runtime / 1000, runtime % 1000 / 10);
  printf("# %d launches x %d writer/reader pairs per variant, %d stress blocks; r1 = flag, r2 = data\n", LAUNCHES,
         TRIALS, STRESS_BLOCKS);
  printf("variant,trials,flag0_data0,flag0_data1,flag1_data1,flag1_data0,sc_allows_flag1_data0\n");
  for (int v = 0; v < N_VARIANTS; v++) {
    for (int l = 0; l < LAUNCHES; l++) {
      EX_CHECK(cudaMemset(data, 0, words * sizeof(int)));
      EX_CHECK(cudaMemset(flag, 0, words * sizeof(int)));
      litmus<<<blocks, THREADS>>>(v, data, flag, counts + 4 * v, stress);
      EX_CHECK(cudaGetLastError());
    }
    unsigned long long c[4];
    EX_CHECK(cudaMemcpy(c, counts + 4 * v, sizeof c, cudaMemcpyDeviceToHost));
    printf("%s,%llu,%llu,%llu,%llu,%llu,%s\n", SLUGS[v], c[0] + c[1] + c[2] + c[3], c[0], c[1], c[2], c[3],
           SC_ALLOWS[v]);
  }
  EX_CHECK(cudaFree(data));
  EX_CHECK(cudaFree(flag));
  EX_CHECK(cudaFree(stress));
  EX_CHECK(cudaFree(counts));
  return 0;
}
