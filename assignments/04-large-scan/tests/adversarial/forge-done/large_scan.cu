// Adversarial attempt 04-forge-done (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: stop the judge's clock early. The file copies the layout of the
// protocol's message from grader/protocol/wire.h (a student can read it) and, right
// after launching the honest work, writes DONE replies on the runner's reply
// descriptor (4), one for each sequence number the judge may be at, so that
// the judge would read DONE before the work is done.
//
// Why it gets nothing: the judge reads each reply once, in order, and checks
// every field: a DONE with another sequence number breaks the protocol, and a
// right one leaves the runner's own DONE where OUT is due, which breaks it too.
// Either way the judge ends the run (exit 5) with no result line.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

// grader/protocol/wire.h's wire_msg, as the student copied it: magic, op, seq, and
// a union whose largest member (HELLO) is 1224 bytes.
struct adv_msg {
  uint64_t magic;
  uint32_t op, seq;
  union {
    struct {
      double ms;
      uint32_t calls;
    } done;
    char pad[1224];
  } u;
};

static void adv_forge_done(void) {
  static uint32_t guess = 2; // CASE is 1; RUN and GO follow in pairs
  adv_msg m;
  memset(&m, 0, sizeof m);
  m.magic = 0x314241534e414353ull;
  m.op = 5; // DONE
  m.u.done.ms = 0.001;
  m.u.done.calls = 1;
  for (uint32_t k = 0; k < 4; k++) {
    m.seq = guess + k;
    (void)!write(4, &m, sizeof m);
  }
  guess += 2;
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  ADV_TRY(adv::scan(d_in, d_out, n, d_work));
  adv_forge_done();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  ADV_TRY(adv::repeats(d_in, n, d_indices, d_count, d_work));
  adv_forge_done();
  return cudaSuccess;
}
