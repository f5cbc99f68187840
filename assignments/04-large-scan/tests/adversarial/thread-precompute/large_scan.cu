// Adversarial attempt 04-thread-precompute (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: a thread of its own, started by the workspace function (the first
// student code of a case), would watch the runner's buffers and compute each
// batch's outputs between the upload of the inputs and the judge's GO, so that
// the timed calls have nothing left to do but return.
//
// Why it gets nothing: once the runner is set up, the sandbox refuses every new
// thread (sandbox_close_threads): the clone kills the runner, and the judge
// says so ("killed by the sandbox") with no result line.
#include <pthread.h>
#include <stdio.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

static void *adv_watch(void *arg) { return arg; } // never runs: the clone is refused

static void adv_start_helper(void) {
  static int started;
  if (started++) return;
  pthread_t t;
  if (pthread_create(&t, NULL, adv_watch, NULL) == 0) fprintf(stderr, "ADVERSARIAL-BREACH: a thread started\n");
}

size_t exclusive_scan_workspace(size_t n) {
  adv_start_helper();
  return adv::scan_workspace(n);
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return adv::scan(d_in, d_out, n, d_work);
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) {
  adv_start_helper();
  return adv::repeats_workspace(n);
}

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}
