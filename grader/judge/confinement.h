/* confinement.h: the judge's check, from outside the runner, that the runner is in its sandbox.
 *
 * The runner installs its seccomp filters itself (grader/runner/sandbox.c), in a process that
 * also holds the student's code, so its word that it did is worth nothing. The kernel's is:
 * /proc/PID/status of every thread of the runner must say `Seccomp: 2` (filter mode) and
 * `Seccomp_filters:` equal to the judge's own count (filters are inherited: a container may
 * have installed some before the judge ran) plus WIRE_SANDBOX_FILTERS (WIRE_SANDBOX_FILTERS_PROFILED
 * for a runner under ncu), with `NoNewPrivs: 1`.
 * PID is the process the runner's HELLO names, which must be the process the judge started
 * or, under a tool that starts the runner itself (compute-sanitizer, ncu), a descendant of it.
 * The judge checks before the first CASE and again before each verdict (judge_main.c). */
#ifndef SCANLAB_CONFINEMENT_H
#define SCANLAB_CONFINEMENT_H

#include <stddef.h>

#include "session.h"

/* 0 when the runner of s is confined; else -1 with a one-line reason in why, e.g. "the runner
 * is not sandboxed: /proc/4242/status says Seccomp: 0". */
int confinement_check(const session *s, char *why, size_t cap);

#endif
