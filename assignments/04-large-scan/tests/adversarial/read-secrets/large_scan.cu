// Adversarial attempt 04-read-secrets (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: find the expected output, or the seed that makes the inputs,
// instead of computing anything: open the reference runner, grade.conf, the
// judge's spec, the judge's command line (/proc/<parent>/cmdline holds
// --seed), its environment and memory, this process's own /proc files; and
// look through the environment for a seed.
//
// Why it gets nothing: the sandbox refuses every open by name (EPERM), and the
// expected outputs never exist in the runner's process or in any file: the
// judge computes them in its own memory. Nothing is written, every output stays
// the runner's 0xA5 poison: ok=0, wrong in every call ("wrong in 5 of 5 calls" on n1025). A line
// "ADVERSARIAL-BREACH" on stderr would mean an open went through.
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "large_scan.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

extern char **environ;

// Every way of opening a path by name that a libc offers, plus the raw syscall.
static void adv_try_open(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) {
    char buf[256];
    size_t got = fread(buf, 1, sizeof buf, f);
    char what[64];
    snprintf(what, sizeof what, "fopen read %zu bytes", got);
    adv_breach(what, path);
    fclose(f);
  }
  int fd = open(path, O_RDONLY);
  if (fd >= 0) adv_breach("open", path), close(fd);
  fd = openat(AT_FDCWD, path, O_RDONLY);
  if (fd >= 0) adv_breach("openat", path), close(fd);
  long r = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
  if (r >= 0) adv_breach("syscall(SYS_openat)", path), close((int)r);
}

static void adv_hunt(void) {
  static const char *const paths[] = {
      "assignments/04-large-scan/ref/reference", "assignments/04-large-scan/ref/bench",
      "assignments/04-large-scan/grade.conf",    "assignments/04-large-scan/judge/spec.c",
      "build/grader/judge",                      "grade.conf",
      "/proc/self/cmdline",                      "/proc/self/environ",
      "/proc/self/maps",                         "/proc/self/mem",
      "/etc/passwd",                             ".",
  };
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) adv_try_open(paths[i]);
  // The judge is the parent: its command line has --seed and --case.
  static const char *const parent[] = {"cmdline", "environ", "maps", "mem"};
  for (size_t i = 0; i < sizeof parent / sizeof *parent; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)getppid(), parent[i]);
    adv_try_open(path);
  }
  // The environment is the judge's: the course's variables, or anything that
  // looks like the judge's --seed, would be a leak. (Other *SEED* variables,
  // such as PYTHONHASHSEED, are only reported.)
  for (char **e = environ; e && *e; e++) {
    char name[128];
    size_t len = strcspn(*e, "=");
    if (len >= sizeof name) len = sizeof name - 1;
    for (size_t i = 0; i < len; i++) name[i] = (char)toupper((unsigned char)(*e)[i]);
    name[len] = 0;
    int course = !strncmp(name, "SCANLAB", 7) || !strncmp(name, "JUDGE", 5) ||
                 !strncmp(name, "GRADE", 5);
    if ((course && strstr(name, "SEED")) || strstr(*e, "--seed")) adv_breach("the environment names a seed", *e);
    else if (strstr(name, "SEED")) fprintf(stderr, "adv read-secrets: %s (not the judge's)\n", name);
  }
}

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_in, (void)d_out, (void)n, (void)d_work;
  adv_hunt(); // found nothing to copy: d_out keeps its poison
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_in, (void)n, (void)d_indices, (void)d_count, (void)d_work;
  adv_hunt();
  return cudaSuccess;
}
