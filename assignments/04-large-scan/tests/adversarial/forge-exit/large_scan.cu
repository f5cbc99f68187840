// Adversarial attempt 04-forge-exit (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: write result lines that say ok=1 to every descriptor 1..9, then
// _exit(0) at once, before the judge can compare anything, hoping that a
// runner that exits 0 with "ok=1" printed counts as a pass.
//
// Why it gets nothing: the judge, not the runner, writes the only result
// lines, and a runner that ends in the middle of a call is a failed run: judge
// exit 5, "case ...: the runner exited with status 0 during a call" (or "broke
// the protocol", when the judge reads the garbage on the reply pipe first).
#include <unistd.h>

#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_in, (void)d_out, (void)n, (void)d_work;
  adv_forge_everywhere();
  _exit(0);
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  adv_forge_everywhere();
  _exit(0);
}
