// harness.cu: the CUDA device of the harness driver (driver.h): memory,
// CUDA-event timing, and the comparison kernel that verifies every timed rep
// on the device against the expected output kept there.
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hx_cuda_check(cudaError_t err, const char *what, const char *file, int line) {
  if (err == cudaSuccess) return;
  const char *hint = hx_error_hint();
  /* One line: the grader quotes the last line of stderr. */
  fprintf(stderr, "%s:%d: %s: CUDA error %s: %s%s%s%s\n", file, line, what, cudaGetErrorName(err),
          cudaGetErrorString(err), hint[0] ? " (note: " : "", hint, hint[0] ? ")" : "");
  exit(3);
}

static void cu_init(char *desc, size_t cap) {
  int count = 0;
  HX_CHECK(cudaGetDeviceCount(&count));
  HX_CHECK(cudaSetDevice(0));
  HX_CHECK(cudaFree(0)); // creates the context now, outside any timing
  cudaDeviceProp p;
  HX_CHECK(cudaGetDeviceProperties(&p, 0));
  snprintf(desc, cap, "%s (sm_%d%d)", p.name, p.major, p.minor);
}

static void *cu_alloc(size_t bytes) {
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // not sticky: clear it, the driver reports the request
    return NULL;
  }
  HX_CHECK(e);
  return p;
}

static void cu_release(void *p) { HX_CHECK(cudaFree(p)); }
static void cu_mem_info(size_t *free_b, size_t *total) { HX_CHECK(cudaMemGetInfo(free_b, total)); }
static void cu_fill(void *d, int byte, size_t bytes) { HX_CHECK(cudaMemset(d, byte, bytes)); }
static void cu_upload(void *d, const void *h, size_t bytes) { HX_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice)); }
static void cu_download(void *h, const void *d, size_t bytes) {
  HX_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}
static void cu_copy(void *dst, const void *src, size_t bytes) {
  HX_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

// ---------------------------------------------------------------- comparison kernel

// The counters one comparison accumulates on the device. max_err is kept as
// the bits of a non-negative float, whose integer order is the float order.
struct hx_cmp_dev {
  unsigned long long mismatches, masked, nonfinite, first_bad;
  unsigned max_err_bits;
};

static __device__ __forceinline__ unsigned long long hx_warp_sum(unsigned long long x) {
  for (int d = 16; d > 0; d /= 2) x += __shfl_down_sync(0xffffffffu, x, d);
  return x;
}

// Grid-stride over the elements; each thread judges with the shared hx_judge,
// each warp reduces its counts and adds them with one atomic per counter.
// Cost: one read of the output, the expected output and the mask.
static __global__ void hx_compare_kernel(hx_cmp_job job, hx_cmp_dev *out) {
  unsigned long long bad = 0, masked = 0, nonfinite = 0, first = HX_NONE;
  float max_err = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < job.count; i += stride) {
    if (job.mask && job.mask[i]) {
      masked++;
      continue;
    }
    hx_elem_verdict v = hx_judge(job.type, job.got, job.expected, i, job.tol);
    if (v.wrong) {
      bad++;
      if (i < first) first = i;
    }
    nonfinite += v.nonfinite;
    max_err = fmaxf(max_err, v.err);
  }
  bad = hx_warp_sum(bad);
  masked = hx_warp_sum(masked);
  nonfinite = hx_warp_sum(nonfinite);
  for (int d = 16; d > 0; d /= 2) {
    first = min(first, __shfl_down_sync(0xffffffffu, first, d));
    max_err = fmaxf(max_err, __shfl_down_sync(0xffffffffu, max_err, d));
  }
  if (threadIdx.x % 32 != 0) return;
  if (bad) atomicAdd(&out->mismatches, bad);
  if (masked) atomicAdd(&out->masked, masked);
  if (nonfinite) atomicAdd(&out->nonfinite, nonfinite);
  if (first != HX_NONE) atomicMin(&out->first_bad, first);
  if (max_err > 0) atomicMax(&out->max_err_bits, __float_as_uint(max_err));
}

static void cu_compare(const hx_cmp_job *job, hx_cmp_sum *sum) {
  static hx_cmp_dev *d = NULL; // one small buffer for the whole run
  if (!d) HX_CHECK(cudaMalloc(&d, sizeof *d));
  hx_cmp_dev h = {0, 0, 0, HX_NONE, 0};
  HX_CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
  if (job->count) {
    int sms = 0;
    HX_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t want = (job->count + 255) / 256, cap = (size_t)sms * 8;
    hx_compare_kernel<<<(unsigned)(want < cap ? want : cap), 256>>>(*job, d);
    HX_CHECK_LAUNCH();
  }
  HX_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost)); // waits for the kernel
  sum->mismatches = h.mismatches;
  sum->masked = h.masked;
  sum->nonfinite = h.nonfinite;
  sum->first_bad = h.first_bad;
  memcpy(&sum->max_err, &h.max_err_bits, sizeof sum->max_err);
}

// ---------------------------------------------------------------- timing

static cudaEvent_t hx_start, hx_stop;

static void cu_timer_start(void) {
  if (!hx_start) {
    HX_CHECK(cudaEventCreate(&hx_start));
    HX_CHECK(cudaEventCreate(&hx_stop));
  }
  HX_CHECK(cudaEventRecord(hx_start));
}

static double cu_timer_stop_ms(void) {
  HX_CHECK(cudaEventRecord(hx_stop));
  HX_CHECK(cudaEventSynchronize(hx_stop));
  // Any asynchronous fault of the student's kernels surfaces here at the latest.
  HX_CHECK(cudaGetLastError());
  float ms = 0;
  HX_CHECK(cudaEventElapsedTime(&ms, hx_start, hx_stop));
  return ms;
}

static const hx_backend HX_CUDA = {
    "cuda", cu_init, cu_alloc, cu_release, cu_mem_info, cu_fill, cu_upload, cu_download, cu_copy, cu_compare,
    cu_timer_start, cu_timer_stop_ms,
};

int hx_main(int argc, char **argv, const hx_assignment *a) { return hx_main_with(argc, argv, a, &HX_CUDA); }
