/* profiling.h: the sandbox's file rules for a runner profiled by Nsight Compute (the metric check).
 *
 * ncu's library, loaded into the runner's process, opens files of its own while it profiles
 * (lock and temporary files), which the seccomp filter alone cannot allow by path: it cannot read
 * a path. So a profiled runner (`--runner-protocol --profiled DIR`, started so by the judge's
 * --profiled, which the grader passes for metric checks alone) enters a Landlock domain first:
 * every file may be read and executed, none written, made or removed, but beneath DIR (a fresh
 * folder the judge made, which is also ncu's TMPDIR), on /dev/shm, on the GPU's device files
 * and on /dev/null, and on ncu's lock file /tmp/nsight-compute-lock where it exists. Its seccomp
 * filter then lets the calls that open, make and remove files by name through (Landlock decides
 * them) and still refuses everything else: processes, sockets, other processes, metadata
 * changes, the runner's sealed image and descriptors. A kernel without Landlock (before 5.13,
 * or with it off) cannot be profiled: the runner says so and exits, never runs unconfined. */
#ifndef SCANLAB_PROFILING_H
#define SCANLAB_PROFILING_H

#include <stddef.h>

/* Enters the Landlock domain above (raw system calls); dir must be a folder. Returns the
 * domain's Landlock ABI version (>= 1), or -1 with a one-line reason. */
int sandbox_profiling_files(const char *dir, char *err, size_t cap);

#endif
