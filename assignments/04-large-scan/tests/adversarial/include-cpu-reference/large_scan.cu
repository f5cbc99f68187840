// Adversarial attempt 04-include-cpu-reference (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: 04-extern-cpu-reference fails because the runner's link leaves the
// course's CPU references out. So bring their code along: #include the course's
// own grader/lib/scan_cpu.c and the assignment's judge/compact_cpu.c by a relative path (the build's
// include path holds only assignments/04-large-scan and the student's folder,
// but a path from this file reaches any file of the course), copy the input to
// the host, scan it there, copy the answer back. The object then defines
// scan_cpu_i32 and compact_cpu_repeats itself, links, and without the
// inspection would pass every case without a line of GPU scan.
//
// Why it gets nothing: the inspection (grader/inspect/inspect-student.sh) reads the
// compiler's dependency list, which names every file that was really compiled:
// a file of the repository outside assignments/04-large-scan and the student's
// own folder is refused ("includes a course file (grader/lib/scan_cpu.c)"),
// before anything links. Pasting the code instead of including it meets the
// next check: the object would define scan_cpu_i32, a name of the course's
// libraries (grader/inspect/course-prefixes.txt). No runner, no points.
#include <stdint.h>
#include <stdlib.h>

#include "large_scan.h"
#include "../common/honest04.cuh"
#include "../../../../../grader/lib/scan_cpu.c"
#include "../../../judge/compact_cpu.c"

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_work;
  if (n == 0) return cudaSuccess;
  int32_t *h = (int32_t *)malloc(n * sizeof *h);
  if (!h) return cudaErrorMemoryAllocation;
  ADV_TRY(cudaMemcpy(h, d_in, n * sizeof *h, cudaMemcpyDeviceToHost));
  scan_cpu_i32(h, h, n, n, SCAN_EXCLUSIVE);
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
