// Adversarial attempt 04-global-ctor (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: the same as 04-static-ctor, without the attribute: a global
// object whose constructor runs at load time, before the sandbox, and reads
// the reference into memory for the scan to "find" later.
//
// Why it gets nothing: the inspection follows the object's .init_array entry
// (the compiler's _GLOBAL__sub_I_ function) to what it calls, and refuses it:
// "refused: large_scan.cu defines a global object with a constructor (...)" or
// "... initializes a global at load time (with ...)". No runner, no points.
#include <stdio.h>
#include <stdlib.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

struct AdvSpy {
  char *reference = nullptr;
  AdvSpy() {
    FILE *f = fopen("assignments/04-large-scan/ref/reference", "rb");
    if (!f) return;
    reference = (char *)malloc(1 << 20);
    if (reference && fread(reference, 1, 1 << 20, f) == 0) reference[0] = 0;
    fclose(f);
  }
};
AdvSpy adv_spy;

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return adv::scan(d_in, d_out, n, d_work);
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}
