// Adversarial attempt 04-interpose-prctl (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: the same hole as 04-interpose-syscall, one call earlier. The
// runner sets PR_SET_NO_NEW_PRIVS with the C library's prctl() before it loads
// its filter; this file defines prctl() itself, answers 0 to every option
// (PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_SET_DUMPABLE...) and so turns every
// prctl the runner makes into a no-op that reports success. The scan is honest.
//
// Why it gets nothing: the build's inspection refuses it ("defines prctl, a
// symbol of the C library"); the runner is never linked with it.
#include <stdarg.h>
#include <stddef.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

extern "C" int prctl(int option, ...) {
  (void)option;
  return 0;
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
