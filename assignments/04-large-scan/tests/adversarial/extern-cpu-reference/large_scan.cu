// Adversarial attempt 04-extern-cpu-reference (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: the course's CPU references exist (grader/lib/scan_cpu.c,
// compact_cpu.c), so declare them extern,
// copy the input to the host, call them, copy the answer back.
//
// Why it gets nothing: the runner holds no CPU reference (librunner.a is the
// protocol loop, the sandbox and the CUDA device only; the references live in
// the judge). The student's object compiles, passes the inspection, and the
// runner does not link: "undefined reference to `scan_cpu_i32'" (and the
// others): no runner, no points.
#include <stdint.h>
#include <stdlib.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

extern "C" {
// grader/lib/scan_cpu.h (scan_kind: 0 inclusive, 1 exclusive) and compact_cpu.h
void scan_cpu_i32(const int32_t *in, int32_t *out, size_t n, size_t segment, int kind);
size_t compact_cpu_repeats(const uint32_t *a, size_t n, uint32_t *indices);
}

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_work;
  if (n == 0) return cudaSuccess;
  int32_t *h = (int32_t *)malloc(n * sizeof *h);
  if (!h) return cudaErrorMemoryAllocation;
  ADV_TRY(cudaMemcpy(h, d_in, n * sizeof *h, cudaMemcpyDeviceToHost));
  scan_cpu_i32(h, h, n, n, 1);
  cudaError_t e = cudaMemcpy(d_out, h, n * sizeof *h, cudaMemcpyHostToDevice);
  free(h);
  return e;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_work;
  uint32_t *h = (uint32_t *)malloc((2 * n + 1) * sizeof *h);
  if (!h) return cudaErrorMemoryAllocation;
  if (n) ADV_TRY(cudaMemcpy(h, d_in, n * sizeof *h, cudaMemcpyDeviceToHost));
  uint32_t count = (uint32_t)compact_cpu_repeats(h, n, h + n);
  if (n) ADV_TRY(cudaMemcpy(d_indices, h + n, n * sizeof *h, cudaMemcpyHostToDevice));
  cudaError_t e = cudaMemcpy(d_count, &count, sizeof count, cudaMemcpyHostToDevice);
  free(h);
  return e;
}
