/* backend_cpu.h: the CPU tier's host-memory device for the runner loop
 * (grader/runner/runner_loop.h), so the judge-runner exchange is tested
 * without a GPU. */
#ifndef SCANLAB_BACKEND_CPU_H
#define SCANLAB_BACKEND_CPU_H

#include "runner_loop.h"

extern const runner_backend CPU_BACKEND;

/* The fake device's time (a duel's timing tests, test_judge.c). With
 * FAKE_DEVICE=PATH (a file of FAKE_DEVICE_BYTES bytes that the test made), the
 * runners of a duel share one device: each runner is a context (FAKE_CONTEXT,
 * 0 by default; the reference's is 1), and work on it runs whatever its
 * process does, as a GPU's does after SIGSTOP. */
enum { FAKE_CONTEXTS = 4, FAKE_HIDDEN_CONTEXT = 3, FAKE_DEVICE_BYTES = 64 };
/* ms of work on this runner's context, now: 10 ms slices, each taking one
 * slice more for every other context that has work queued (a GPU time-slices
 * between contexts). */
void cpu_device_work(double ms);
/* Queues ms of work on context ctx, to run from now on: the backend's idle (and
 * a timer that is not patched) waits for this runner's own context's, and for
 * no other's (a second context is not the runner's to wait for). */
void cpu_device_queue(int ctx, double ms);
/* This runner's context. */
int cpu_device_context(void);
/* FAKE_PACE_MS: a paced call's device work in ms (40 by default). */
double cpu_device_pace_ms(void);

#endif
