// Adversarial attempt 04-daemon (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: fork a daemon that leaves the runner's process group (setsid),
// outlives the run and the grader's kill of the group, and a moment later,
// when the grader has written its results, overwrites them: it writes
// grade-results/latest/results.json with full marks (and a marker file
// grade-results/ADVERSARIAL-DAEMON, which the suite's driver looks for). The
// runner itself computes nothing.
//
// Why it gets nothing: fork, vfork, clone without CLONE_THREAD (what fork and
// daemon() use) are EPERM and clone3 is ENOSYS in the sandbox; setsid is EPERM
// too. No daemon, nothing written: ok=0, wrong in every call ("wrong in 5 of 5 calls" on n1025).
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

static const char ADV_FORGED_JSON[] =
    "{\"assignment\": \"04-large-scan\", \"score\": 100, \"max\": 100, \"checks\": [], \"forged\": true}\n";

static void adv_daemon_body(void) {
  if (setsid() < 0) { /* stays in the group; tries anyway */
  }
  sleep(2); // the grader has written its results by now
  static const char *const files[] = {"grade-results/latest/results.json", "grade-results/ADVERSARIAL-DAEMON"};
  for (int i = 0; i < 2; i++) {
    int fd = open(files[i], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) (void)!write(fd, ADV_FORGED_JSON, sizeof ADV_FORGED_JSON - 1), close(fd);
  }
  _exit(0);
}

static void adv_start_daemon(void) {
  static int tried;
  if (tried++) return;
  pid_t pid = fork();
  if (pid == 0) adv_daemon_body();
  if (pid > 0) {
    char why[64];
    snprintf(why, sizeof why, "pid %d", (int)pid);
    adv_breach("fork() made a daemon", why);
    return;
  }
  if (daemon(1, 1) == 0) { // libc's own: fork, setsid; we would now be the daemon
    adv_breach("daemon() returned in the child", "the runner left the judge");
    adv_daemon_body();
  }
}

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_in, (void)d_out, (void)n, (void)d_work;
  adv_start_daemon();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  adv_start_daemon();
  return cudaSuccess;
}
