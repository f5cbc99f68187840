// example.h: what every standalone lecture example shares: a check for CUDA
// calls and launches, the "takes no arguments" rule, and the GPU line that
// heads each example's CSV. Needs nothing but the CUDA runtime.
#ifndef SCANLAB_EXAMPLE_H
#define SCANLAB_EXAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

// Every CUDA call goes through EX_CHECK: on failure it prints
// "file:line: call: CUDA's message" and exits 3 (the course's exit code for a
// CUDA error). Never compiled out.
#define EX_CHECK(call) ex_check((call), #call, __FILE__, __LINE__)
// After every launch: a bad configuration is reported here, and a fault in the
// kernel at the synchronization (examples are not timed across this check).
#define EX_CHECK_LAUNCH()                                                                                             \
  do {                                                                                                                \
    ex_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__);                                                \
    ex_check(cudaDeviceSynchronize(), "kernel run", __FILE__, __LINE__);                                              \
  } while (0)

static inline void ex_check(cudaError_t err, const char *what, const char *file, int line) {
  if (err == cudaSuccess) return;
  fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(err));
  exit(3);
}

// Examples take no arguments: anything else is a usage error (exit 2).
static inline void ex_no_arguments(int argc, char **argv, const char *what) {
  if (argc <= 1) return;
  fprintf(stderr, "%s: %s: takes no arguments; it prints %s as CSV on the GPU present\n", argv[0],
          strcmp(argv[1], "--help") ? "unknown argument" : "usage", what);
  exit(2);
}

// The comment line that heads the CSV: which example, which GPU, which CUDA.
static inline cudaDeviceProp ex_print_gpu(const char *lecture, const char *example) {
  cudaDeviceProp prop;
  int runtime = 0;
  EX_CHECK(cudaGetDeviceProperties(&prop, 0));
  EX_CHECK(cudaRuntimeGetVersion(&runtime));
  printf("# %s, %s: %s (sm_%d%d, %d SMs), CUDA runtime %d.%d\n", lecture, example, prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, runtime / 1000, runtime % 1000 / 10);
  return prop;
}

// cudaMalloc, checked, and zeroed.
static inline void *ex_dev_zeros(size_t bytes) {
  void *p = NULL;
  EX_CHECK(cudaMalloc(&p, bytes));
  EX_CHECK(cudaMemset(p, 0, bytes));
  return p;
}

#endif
