// Adversarial attempt 04-cub-disguised (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: let CUB do the assignment, hiding it from a grep of the source:
// the header's name is built by a macro, and the namespace is used through an
// alias, so neither "#include <cub" nor "cub::" appears in the file.
//
// Why it gets nothing: the inspection (grader/inspect/inspect-student.sh) reads what the
// compiler really included (nvcc's -MD dependency file) and the object's
// symbols, not the source text: the build is refused, "refused: large_scan.cu
// uses CUB (it includes cub/...)". No runner, no points.
#define ADV_LIB(dir, file) <dir/device/file>
#define ADV_SCAN ADV_LIB(cub,device_scan.cuh)
#include ADV_SCAN

#include "large_scan.h"
#include "../common/honest04.cuh"

namespace c = cub;

size_t exclusive_scan_workspace(size_t n) {
  size_t bytes = 0;
  c::DeviceScan::ExclusiveSum(nullptr, bytes, (const unsigned *)nullptr, (unsigned *)nullptr, (int)n);
  return bytes + 16;
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  size_t bytes = exclusive_scan_workspace(n);
  return c::DeviceScan::ExclusiveSum(d_work, bytes, d_in, d_out, (int)n);
}

ADV_UNGRADED_SCANS()

// The flags, their scan, CUB's temporary storage.
size_t find_repeats_workspace(size_t n) { return 2 * adv::round16(n * sizeof(unsigned)) + exclusive_scan_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  if (n == 0) return cudaMemsetAsync(d_count, 0, sizeof *d_count);
  unsigned *flags = (unsigned *)d_work, *pos = flags + adv::round16(n * sizeof(unsigned)) / sizeof(unsigned);
  void *temp = pos + adv::round16(n * sizeof(unsigned)) / sizeof(unsigned);
  unsigned blocks = (unsigned)((n + 255) / 256);
  adv::repeat_flags<<<blocks, 256>>>(d_in, n, flags);
  ADV_TRY(cudaGetLastError());
  size_t bytes = exclusive_scan_workspace(n);
  ADV_TRY(c::DeviceScan::ExclusiveSum(temp, bytes, flags, pos, (int)n));
  adv::repeat_scatter<<<blocks, 256>>>(flags, pos, n, d_indices, d_count);
  return cudaGetLastError();
}
