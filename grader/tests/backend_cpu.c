/* backend_cpu.c: a "device" in host memory (backend_cpu.h). Timing is the
 * wall clock between timer_start and timer_stop_ms. A timer started without a
 * settle just before it ends the runner with exit 2 and a message, so that every
 * judge test through the fake runner fails should the loop stop settling. */
#include "backend_cpu.h"

#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) { return 1e3 * clock_now_s(); }

static double started;

/* ---------------------------------------------------------------- the shared fake device */

/* When each context's queued work ends (clock_now_s); NULL without FAKE_DEVICE. */
static volatile double *busy_until;
static int my_ctx;
static double local_busy; /* without FAKE_DEVICE: this runner's own context only */

static void sleep_ms(double ms) {
  if (!(ms > 0)) return;
  struct timespec t = {(time_t)(ms / 1000), (long)((ms - 1000 * (double)(time_t)(ms / 1000)) * 1e6)};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

static const char *mode(void) {
  const char *m = getenv("FAKE_STUDENT");
  return m ? m : "honest";
}

int cpu_device_context(void) { return my_ctx; }

double cpu_device_pace_ms(void) {
  const char *p = getenv("FAKE_PACE_MS");
  double ms = p ? atof(p) : 40;
  return ms > 0 ? ms : 40;
}

static volatile double *slot(int ctx) { return busy_until ? &busy_until[ctx] : &local_busy; }

/* How many other contexts have work queued now. */
static int others_busy(void) {
  if (!busy_until) return 0;
  double t = clock_now_s();
  int n = 0;
  for (int c = 0; c < FAKE_CONTEXTS; c++) n += c != my_ctx && busy_until[c] > t;
  return n;
}

enum { SLICE_MS = 10 };
void cpu_device_work(double ms) {
  for (double left = ms; left > 0; left -= SLICE_MS) {
    double slice = left < SLICE_MS ? left : SLICE_MS, took = slice * (1 + others_busy());
    *slot(my_ctx) = clock_now_s() + took / 1e3;
    sleep_ms(took);
  }
}

void cpu_device_queue(int ctx, double ms) {
  if (ctx < 0 || ctx >= FAKE_CONTEXTS) return;
  volatile double *s = busy_until || ctx == my_ctx ? slot(ctx) : NULL;
  if (!s) return;
  double t = clock_now_s(), from = *s > t ? *s : t;
  *s = from + ms / 1e3;
}

static void device_open(void) {
  const char *c = getenv("FAKE_CONTEXT");
  my_ctx = c ? atoi(c) : 0;
  if (my_ctx < 0 || my_ctx >= FAKE_CONTEXTS) my_ctx = 0;
  const char *path = getenv("FAKE_DEVICE");
  if (!path) return;
  int fd = open(path, O_RDWR);
  void *p = fd >= 0 ? mmap(NULL, FAKE_DEVICE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  if (fd >= 0) close(fd);
  if (p == MAP_FAILED) {
    fprintf(stderr, "backend_cpu: cannot map FAKE_DEVICE %s: %s\n", path, strerror(errno));
    exit(2);
  }
  busy_until = p;
}

/* ---------------------------------------------------------------- the backend */

static void cpu_init(char *desc, size_t cap) {
  strncpy(desc, "host memory (test backend)", cap - 1);
  desc[cap - 1] = 0;
  device_open();
}
static void *cpu_alloc(size_t bytes) { return malloc(bytes); }
static void cpu_release(void *p) { free(p); }
static void cpu_fill(void *d, int byte, size_t bytes) { memset(d, byte, bytes); }
/* The device-to-device copy (copy_d2d, and a duel's floor). FAKE_COPY=slow
 * makes it take 50 ms more, so that a floor drawn from it is above any call. */
static void cpu_device_copy(void *dst, const void *src, size_t bytes) {
  const char *c = getenv("FAKE_COPY");
  if (c && !strcmp(c, "slow")) sleep_ms(50);
  memcpy(dst, src, bytes);
}
/* Waits until this runner's own context has no work queued (a GPU's
 * cudaDeviceSynchronize: every stream of the context, no other context). */
static void cpu_idle(void) {
  double left = 1e3 * (*slot(my_ctx) - clock_now_s());
  sleep_ms(left);
}

/* The calls of the batch being prepared: one upload each (04 has one input). */
static unsigned uploads;
static void cpu_upload(void *d, const void *h, size_t bytes) {
  memcpy(d, h, bytes);
  uploads++;
}

/* FAKE_STUDENT=settle-work: a redirected backend whose settle does the batch's
 * device work (a paced call's, for every call of the batch) after the uploads
 * and before GO; the student's calls then only copy. */
static void settle_does_the_work(void) {
  if (!strcmp(mode(), "settle-work")) cpu_device_work(cpu_device_pace_ms() * uploads);
}

static int settled; /* a settle since the last timer_start */
static void cpu_settle(void) {
  settle_does_the_work();
  uploads = 0;
  settled = 1;
}
static void cpu_timer_start(void) {
  if (!settled) {
    fprintf(stderr, "backend_cpu: timer_start without a settle before it (runner_loop.c's case_prepare)\n");
    exit(2);
  }
  settled = 0;
  started = now_ms();
}

/* FAKE_STUDENT=early-done and spin-into-reference: a patched timer that returns
 * without waiting for the device, so DONE goes out while the call's work is
 * still queued. early-done's work is on the default stream, which a download
 * waits for; spin-into-reference's is on a non-blocking stream, which it does not. */
static int timer_patched(void) { return !strcmp(mode(), "early-done") || !strcmp(mode(), "spin-into-reference"); }
static void download_waits(void) {
  if (!strcmp(mode(), "early-done")) cpu_idle();
}

/* FAKE_TIMER=lies: the runner's own timer says 1 us whatever ran, as a student
 * who patched it would make it say; the judge's clock must not believe it. */
static double cpu_timer_stop_ms(void) {
  if (!timer_patched()) cpu_idle();
  const char *t = getenv("FAKE_TIMER");
  return t && !strcmp(t, "lies") ? 0.001 : now_ms() - started;
}
static void cpu_download(void *h, const void *d, size_t bytes) {
  download_waits();
  memcpy(h, d, bytes);
}

const runner_backend CPU_BACKEND = {
    "cpu",    cpu_init, cpu_alloc, cpu_release, cpu_fill, cpu_upload, cpu_download, cpu_device_copy, cpu_idle, cpu_timer_start,
    cpu_timer_stop_ms, NULL,  NULL,      cpu_settle,
};
