// Adversarial attempt 04-static-ctor (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: a static constructor runs when the runner is loaded, before
// main, so before the CUDA context and before the sandbox: nothing is denied
// yet. It would read grade.conf and the reference, start a helper process,
// keep a descriptor of the results folder open for later (open descriptors
// stay writable under the sandbox).
//
// Why it gets nothing: the inspection (grader/inspect/inspect-student.sh) refuses an
// object whose .init_array holds anything but nvcc's registration:
// "refused: large_scan.cu defines a static constructor (adv_before_sandbox)".
// No runner, no points. (The scan itself is honest; it never runs.)
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

int adv_results_fd = -1; // (external: a static one would be "set but never used")

__attribute__((constructor)) static void adv_before_sandbox(void) {
  adv_results_fd = open("grade-results", O_RDONLY | O_DIRECTORY); // kept: writable after the sandbox is up
  FILE *f = fopen("assignments/04-large-scan/grade.conf", "r");
  if (f) fclose(f);
  if (fork() == 0) { // a helper outside the sandbox, for later
    sleep(1);
    _exit(0);
  }
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return adv::scan(d_in, d_out, n, d_work);
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}
