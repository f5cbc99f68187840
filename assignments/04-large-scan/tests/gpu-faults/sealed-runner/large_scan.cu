// large_scan.cu: GPU-tier probe "sealed-runner" (grader/tests/gpu-tier.sh, issue 39):
// the 04 solution, whose workspace function (the first student code of a case)
// first tries what a student would to take the runner's state over: make the
// runner's first page and its last page writable, unmap a page of its image,
// map a page over it, replace the protocol's reply pipe and close the shared
// memory's descriptor. The sandbox must refuse every one with EPERM, and the
// CUDA runtime must keep working under the same filter: then the solution is
// graded as itself. Anything that got through asks for a workspace no GPU has,
// so the case fails with the runner's "not enough device memory".
#define exclusive_scan_workspace static exclusive_scan_workspace_solution // static: the inspection allows no global its header does not declare
#include "solution.cu" // the solution's file, beside this one in the folder make gpu-faults assembles
#undef exclusive_scan_workspace

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" const char __ehdr_start[];
extern "C" char _end[];

// 0 when the call failed with EPERM (the sandbox's answer); else 1, said on stderr.
static int probe_got_through(long r, const char *what) {
  if (r == -1 && errno == EPERM) return 0;
  fprintf(stderr, "sealed-runner probe: %s returned %ld (errno %d), not EPERM\n", what, r, r == -1 ? errno : 0);
  return 1;
}

size_t exclusive_scan_workspace(size_t n) {
  void *first = (void *)__ehdr_start, *last = (void *)(((unsigned long)_end - 1) & ~4095ul);
  int pipe_fds[2];
  int through = probe_got_through(mprotect(first, 4096, PROT_READ | PROT_WRITE | PROT_EXEC), "mprotect(first page)") +
                probe_got_through(mprotect(last, 4096, PROT_READ | PROT_WRITE | PROT_EXEC), "mprotect(last page)") +
                probe_got_through(munmap(last, 4096), "munmap(last page)") +
                probe_got_through(mmap(last, 4096, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
                                          MAP_FAILED ? -1 : 0, "mmap(MAP_FIXED over the last page)");
  if (pipe(pipe_fds) == 0) through += probe_got_through(dup2(pipe_fds[1], 4), "dup2(pipe, the reply descriptor)");
  through += probe_got_through(close(5), "close(the shared memory's descriptor)");
  return through ? ~(size_t)0 >> 2 : exclusive_scan_workspace_solution(n);
}
