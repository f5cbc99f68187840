// Adversarial attempt 04-forge-lines (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: compute nothing, and write result lines that say ok=1 to every
// descriptor 1..9, hoping one of them is where the grader reads results from.
//
// Why it gets nothing: result lines come only from the judge, on its
// --result-fd, which the runner never holds (session.c closes everything but
// the protocol's pipes and the shared memory). The lines that land on
// descriptor 4, the runner's reply pipe, are garbage to the judge, which stops
// the run: judge exit 5, "the runner broke the protocol", no result line.
#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_in, (void)d_out, (void)n, (void)d_work;
  adv_forge_everywhere();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  adv_forge_everywhere();
  return cudaSuccess;
}
