// Adversarial attempt 04-thrust-alias (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: Thrust does the scan and the compaction; the headers are named
// through a macro and the namespace through an alias, so neither
// "#include <thrust" nor "thrust::" appears in the file.
//
// Why it gets nothing: the inspection (grader/inspect/inspect-student.sh) reads the
// headers nvcc really included (-MD) and the object's symbols: the build is
// refused, "refused: large_scan.cu uses Thrust (it includes thrust/...)". No
// runner, no points.
#define ADV_T(file) <thrust/file>
#include ADV_T(execution_policy.h)
#include ADV_T(scan.h)
#include ADV_T(copy.h)
#include ADV_T(iterator/counting_iterator.h)

#include "large_scan.h"
#include "../common/honest04.cuh"

namespace th = thrust;

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_work;
  th::exclusive_scan(th::device, d_in, d_in + n, d_out);
  return cudaGetLastError();
}

ADV_UNGRADED_SCANS()

struct adv_is_repeat {
  const unsigned *a;
  __host__ __device__ bool operator()(unsigned i) const { return a[i] == a[i + 1]; }
};

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_work;
  unsigned count = 0;
  if (n > 1) {
    th::counting_iterator<unsigned> first(0), last((unsigned)(n - 1));
    unsigned *end = th::copy_if(th::device, first, last, d_indices, adv_is_repeat{d_in});
    count = (unsigned)(end - d_indices);
  }
  return cudaMemcpy(d_count, &count, sizeof count, cudaMemcpyHostToDevice);
}
