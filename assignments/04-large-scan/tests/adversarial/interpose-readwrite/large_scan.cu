// Adversarial attempt 04-interpose-readwrite (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: speak the runner's protocol for it. The runner reads the judge's
// messages with read() and answers with write(); this file defines both, so
// that every message of the runner's passes through it. read() is passed on
// (through the C library's __read alias); write() drops the runner's own DONE
// replies, and the scan writes its DONE itself right after it has launched its
// kernels, long before they finish, with a time of 1 us: the judge would stop
// its clock early. The layout of the message is copied from
// grader/protocol/wire.h, as a student can read it.
//
// Why it gets nothing: the build's inspection refuses an object that defines a
// library's symbol ("defines read, a symbol of the C library"), so the runner
// is never linked with these.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

extern "C" ssize_t __read(int fd, void *buf, size_t n);
extern "C" ssize_t __write(int fd, const void *buf, size_t n);

enum { ADV_REPLY_FD = 4, ADV_OP_DONE = 5 };

// wire.h's message as the student copied it: magic, op, seq, then the payload.
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

static uint32_t adv_last_seq; // the sequence number of the judge's last message

extern "C" ssize_t read(int fd, void *buf, size_t n) {
  ssize_t got = __read(fd, buf, n);
  if (got >= (ssize_t)(sizeof(uint64_t) + 2 * sizeof(uint32_t))) memcpy(&adv_last_seq, (char *)buf + 12, sizeof adv_last_seq);
  return got;
}

extern "C" ssize_t write(int fd, const void *buf, size_t n) {
  adv_msg m;
  if (fd == ADV_REPLY_FD && n == sizeof m) {
    memcpy(&m, buf, sizeof m);
    if (m.op == ADV_OP_DONE) return (ssize_t)n; // the runner's own DONE: dropped, the judge has ours
  }
  return __write(fd, buf, n);
}

static void adv_done_now(void) {
  adv_msg m;
  memset(&m, 0, sizeof m);
  m.magic = 0x314241534e414353ull;
  m.op = ADV_OP_DONE;
  m.seq = adv_last_seq;
  m.u.done.ms = 0.001;
  m.u.done.calls = 1;
  (void)!__write(ADV_REPLY_FD, &m, sizeof m);
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  ADV_TRY(adv::scan(d_in, d_out, n, d_work));
  adv_done_now();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  ADV_TRY(adv::repeats(d_in, n, d_indices, d_count, d_work));
  adv_done_now();
  return cudaSuccess;
}
