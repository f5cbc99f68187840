/* backend_cpu.c: a "device" in host memory (backend_cpu.h). Timing is the
 * wall clock between timer_start and timer_stop_ms. A timer started without a
 * settle just before it ends the runner with exit 2 and a message, so that every
 * judge test through the fake runner fails should the loop stop settling. */
#include "backend_cpu.h"

#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) { return 1e3 * clock_now_s(); }

static double started;

static void cpu_init(char *desc, size_t cap) {
  strncpy(desc, "host memory (test backend)", cap - 1);
  desc[cap - 1] = 0;
}
static void *cpu_alloc(size_t bytes) { return malloc(bytes); }
static void cpu_release(void *p) { free(p); }
static void cpu_fill(void *d, int byte, size_t bytes) { memset(d, byte, bytes); }
static void cpu_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
/* The device-to-device copy (copy_d2d, and a duel's floor). FAKE_COPY=slow
 * makes it take 50 ms more, so that a floor drawn from it is above any call. */
static void cpu_device_copy(void *dst, const void *src, size_t bytes) {
  const char *c = getenv("FAKE_COPY");
  if (c && !strcmp(c, "slow")) {
    struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
  }
  memcpy(dst, src, bytes);
}
static int settled; /* a settle since the last timer_start */
static void cpu_settle(void) { settled = 1; }
static void cpu_timer_start(void) {
  if (!settled) {
    fprintf(stderr, "backend_cpu: timer_start without a settle before it (runner_loop.c's case_prepare)\n");
    exit(2);
  }
  settled = 0;
  started = now_ms();
}
static void cpu_idle(void) {}
/* FAKE_TIMER=lies: the runner's own timer says 1 us whatever ran, as a student
 * who patched it would make it say; the judge's clock must not believe it. */
static double cpu_timer_stop_ms(void) {
  const char *t = getenv("FAKE_TIMER");
  return t && !strcmp(t, "lies") ? 0.001 : now_ms() - started;
}

const runner_backend CPU_BACKEND = {
    "cpu",    cpu_init, cpu_alloc, cpu_release, cpu_fill, cpu_copy, cpu_copy, cpu_device_copy, cpu_idle, cpu_timer_start,
    cpu_timer_stop_ms, NULL,  NULL,      cpu_settle,
};
