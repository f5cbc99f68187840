/* runner_loop.h: the runner's protocol loop and the device it drives.
 *
 * runner_loop.c is plain C: it speaks wire.h with the judge and reaches the GPU
 * only through a runner_backend. runner_cuda.cu supplies the CUDA one; the CPU
 * tier's tests supply one in host memory (grader/tests/backend_cpu.c), so the
 * whole judge-runner exchange is tested without a GPU. Not included by
 * assignments. */
#ifndef SCANLAB_RUNNER_LOOP_H
#define SCANLAB_RUNNER_LOOP_H

#include <stddef.h>

#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct runner_backend {
  const char *name;
  /* Creates the context (untimed, modules loaded eagerly); a one-line description. */
  void (*init)(char *desc, size_t cap);
  void *(*alloc)(size_t bytes); /* NULL when it cannot be had */
  void (*release)(void *p);
  void (*fill)(void *dev, int byte, size_t bytes);
  void (*upload)(void *dev, const void *host, size_t bytes);
  void (*download)(void *host, const void *dev, size_t bytes);
  void (*copy)(void *dst, const void *src, size_t bytes); /* device to device */
  /* Waits until the device has no work left: every stream, graph and host
   * callback of the process, not only the default stream's. */
  void (*idle)(void);
  /* The timed window: timer_start on an idle device; timer_stop_ms waits
   * until the device is idle again (as idle does) and returns the elapsed ms. */
  void (*timer_start)(void);
  double (*timer_stop_ms)(void);
  /* Optional (NULL: nothing): pins host memory that the copies use, for faster
   * uploads and downloads (0: pinned; a failure is not an error, the copies
   * then go through pageable memory); unpin before it is unmapped. */
  int (*pin)(void *host, size_t bytes);
  void (*unpin)(void *host);
  /* Optional (NULL: nothing): called after a batch's uploads and poisoning and
   * just before timer_start, so that every batch starts from the same cache
   * state. The CUDA one leaves L2 holding clean lines only (runner_cuda.cu). */
  void (*settle)(void);
} runner_backend;

/* main() of a runner: with --runner-protocol (and nothing after it: no option
 * turns the sandbox off), the protocol loop on the descriptors of wire.h;
 * otherwise, started by hand, it runs the judge on itself. */
int runner_main(int argc, char **argv, const runner_assignment *r, const runner_backend *b);

/* A hint printed with a device error (e.g. "the workspace is 0 bytes, so d_work
 * is NULL"), or "" when none. */
const char *runner_error_hint(void);

#ifdef __cplusplus
}
#endif
#endif
