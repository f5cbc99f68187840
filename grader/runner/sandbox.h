/* sandbox.h: the seccomp filters the runner enters once its CUDA context exists (two stages:
 * WIRE_SANDBOX_FILTERS in wire.h, which the judge counts in /proc/PID/status). */
#ifndef SCANLAB_SANDBOX_H
#define SCANLAB_SANDBOX_H

#include <stddef.h>

#include "guard.h"

/* Installs the filter on every thread of the process (the CUDA driver's threads too),
 * irrevocably; the pid it may still signal is the process's at this call. The memory and
 * descriptors of g are guarded (guard.h). Every system call that sets it up is the
 * runner's own instruction (rawsys.h), never a libc wrapper that the student's object
 * could define. Returns 0, or -1 with a one-line reason in err (e.g. the kernel refused
 * the filter), and then no filter is in place (PR_SET_NO_NEW_PRIVS may be). */
int sandbox_enter_guarded(const sandbox_guard *g, char *err, size_t cap);
/* sandbox_enter_guarded with the program's own image guarded (sandbox_image) and no
 * descriptor: for a program of the course's that runs a student's functions (an
 * assignment's model-tables). */
int sandbox_enter(char *err, size_t cap);

/* The second stage, entered once the runner's own set-up is done and before the first
 * student code runs: no new thread at all. A clone with CLONE_THREAD then kills the runner
 * (SIGSYS, which the judge names), so no thread of the student's can compute between the
 * upload of a batch's inputs and the judge's GO. The CUDA runtime's own threads
 * exist by then (runner_cuda.cu makes them at set-up). Returns 0, or -1 with a reason. */
int sandbox_close_threads(char *err, size_t cap);

/* The table of what is denied, for docs and tests: the syscall's name, its number on
 * this architecture, and why (the attack it stops, and its condition when it is only
 * partly denied). The filter is built from this table. */
typedef struct sandbox_rule {
  const char *name;
  long nr;
  const char *why;
  int by_path; /* in a profiled runner, allowed: its Landlock domain decides by path (profiling.h) */
} sandbox_rule;
extern const sandbox_rule sandbox_denied[];
extern const int sandbox_n_denied;

#endif
