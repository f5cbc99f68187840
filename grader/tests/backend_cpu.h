/* backend_cpu.h: the CPU tier's host-memory device for the runner loop
 * (grader/runner/runner_loop.h), so the judge-runner exchange is tested
 * without a GPU. */
#ifndef SCANLAB_BACKEND_CPU_H
#define SCANLAB_BACKEND_CPU_H

#include "runner_loop.h"

extern const runner_backend CPU_BACKEND;

#endif
