// Adversarial attempt 04-forge-results-json (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: skip the work and write the grader's report directly: a
// results.json with full marks in grade-results/latest/ (creating the folder if
// need be; by open, creat, and by a temporary file renamed over the real one),
// hoping the grader, or whoever reads the folder, takes it.
//
// Why it gets nothing: the sandbox refuses open and creat by name, mkdir and
// rename (EPERM), and the grader writes its results from its own process
// anyway. Nothing written: ok=0, wrong in every call ("wrong in 5 of 5 calls" on n1025), and the suite's
// driver checks that grade-results/latest/results.json was not created in the
// run's folder.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

static const char ADV_FORGED_JSON[] =
    "{\"assignment\": \"04-large-scan\", \"score\": 100, \"max\": 100, \"checks\": [], \"forged\": true}\n";

static void adv_write_results(void) {
  static const char path[] = "grade-results/latest/results.json", tmp[] = "grade-results/latest/.results.json.tmp";
  if (mkdir("grade-results", 0755) == 0) adv_breach("mkdir", "grade-results");
  if (mkdir("grade-results/latest", 0755) == 0) adv_breach("mkdir", "grade-results/latest");
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0) fd = creat(path, 0644);
  if (fd >= 0) {
    adv_breach("opened for writing", path);
    (void)!write(fd, ADV_FORGED_JSON, sizeof ADV_FORGED_JSON - 1);
    close(fd);
    return;
  }
  fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd >= 0) {
    adv_breach("opened for writing", tmp);
    (void)!write(fd, ADV_FORGED_JSON, sizeof ADV_FORGED_JSON - 1);
    close(fd);
    if (rename(tmp, path) == 0) adv_breach("renamed over", path);
  }
}

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_in, (void)d_out, (void)n, (void)d_work;
  adv_write_results();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  adv_write_results();
  return cudaSuccess;
}
