// Adversarial attempt 04-kill-judge (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: kill the judge (the runner's parent) with SIGKILL, and the whole
// process group with it, before doing the work, hoping that a grader whose
// judge died records whatever it had, or nothing at all, instead of a failure.
// The work that follows is honest: this row is the control that the judge
// survives an attempt on its life.
//
// Why it gets nothing extra: kill is allowed only on the runner's own pid
// (and tgkill only on its own thread group): both calls fail with EPERM, the
// judge lives on, and the honest scan passes: ok=1. A line
// "ADVERSARIAL-BREACH" on stderr would mean a signal went through.
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

static void adv_kill_judge(void) {
  pid_t judge = getppid();
  if (kill(judge, SIGKILL) == 0) adv_breach("kill(getppid(), SIGKILL) went through", "the judge");
  if (syscall(SYS_tgkill, judge, judge, SIGKILL) == 0) adv_breach("tgkill on the judge went through", "the judge");
  if (kill(0, SIGKILL) == 0) adv_breach("kill(0, SIGKILL) went through", "the process group");
}

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  adv_kill_judge();
  return adv::scan(d_in, d_out, n, d_work);
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  adv_kill_judge();
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}
