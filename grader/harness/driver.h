/* driver.h: the harness driver and the device it drives.
 *
 * hx_main (driver.c) is plain C: options, cases, the rep loop that verifies
 * every timed rep, result lines, --list, --bench, --out. It reaches the device
 * only through an hx_backend: harness.cu supplies the CUDA one, and the CPU
 * tier's tests a host-memory one (grader/tests/backend_cpu.c), so the driver's
 * logic is tested without a GPU. Not included by assignments. */
#ifndef SCANLAB_DRIVER_H
#define SCANLAB_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One comparison of one output, on the device. */
typedef struct hx_cmp_job {
  hx_type type;
  const void *got, *expected; /* device */
  const uint8_t *mask;        /* device, or NULL */
  size_t count;
  float tol;
} hx_cmp_job;

typedef struct hx_backend {
  const char *name;
  /* Creates the context (untimed); fills a one-line device description. Errors exit 3. */
  void (*init)(char *desc, size_t cap);
  /* Device memory; NULL when it cannot be had (the driver says why). */
  void *(*alloc)(size_t bytes);
  void (*release)(void *p);
  void (*mem_info)(size_t *free_bytes, size_t *total_bytes);
  void (*fill)(void *dev, int byte, size_t bytes);
  void (*upload)(void *dev, const void *host, size_t bytes);
  void (*download)(void *host, const void *dev, size_t bytes);
  void (*copy)(void *dst, const void *src, size_t bytes); /* device to device */
  void (*compare)(const hx_cmp_job *job, hx_cmp_sum *sum);
  /* Timing: start, then stop waits for all work and returns elapsed ms. */
  void (*timer_start)(void);
  double (*timer_stop_ms)(void);
} hx_backend;

/* The backend hx_main uses; harness.cu sets the CUDA one before calling it. */
int hx_main_with(int argc, char **argv, const hx_assignment *a, const hx_backend *b);

/* A hint printed after a device error (e.g. "the workspace is 0 bytes, so
 * d_work is NULL"), or "" when none. */
const char *hx_error_hint(void);

/* Prints "<assignment>: message" and exits with code (2 bad arguments, 3 device or memory). */
void hx_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* outputs.c: --out FILE (the last rep's first output; an image as PPM or PNG by
 * the extension, anything else as raw little-endian elements), and
 * --save-failed DIR (the first wrong frame of an image case leaves
 * CASE.student, CASE.expected and CASE.diff, each .png and .ppm, for the
 * grader's results folder). */
void hx_write_out(const char *path, const hx_io *io);
void hx_save_failed(const char *dir, const char *case_name, const hx_io *io);

/* Frees every hx_malloc/hx_dev_malloc allocation of the current case. */
void hx_arena_release(void);

#ifdef __cplusplus
}
#endif
#endif
