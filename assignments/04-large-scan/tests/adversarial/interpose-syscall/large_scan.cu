// Adversarial attempt 04-interpose-syscall (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: skip the sandbox without touching it. The runner installs its
// seccomp filter through the C library's syscall(); this file defines a
// syscall() of its own, which the link puts ahead of the C library's, so the
// runner's call lands here. It answers 0 ("installed") to seccomp and to
// everything else, and the runner goes on believing it is confined while no
// filter exists: every open, fork and write of a later call would go through.
// The scan itself is honest (common/honest04.cuh).
//
// Why it gets nothing: the build's inspection refuses an object that defines a
// symbol of a library the runner links with ("defines syscall, a symbol of the
// C library"), so no runner is ever built from it.
#include <stdarg.h>
#include <stddef.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

static unsigned long adv_calls_seen;

extern "C" long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  (void)va_arg(ap, long); // the filter's operation, flags and program: ignored
  va_end(ap);
  adv_calls_seen++;
  return 0; // "the filter is installed"
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
