// redirect04.cuh: work moved out of the judge's timed window by a redirected
// device backend (assignments/04-large-scan/tests/adversarial/README.md, the 04-settle-precompute,
// 04-early-done-timer and 04-spin-into-reference rows). The runner reaches the
// GPU through a pointer to a table of functions (grader/runner/runner_loop.h's
// runner_backend: a name, "cuda", then 13 functions). The workspace function,
// the first code of the student's to run in a case, finds that pointer among
// the runner's own data (a word that points at a table whose name is "cuda"),
// copies the table, changes one or two of its functions, and points the
// runner at the copy. ADV_REDIRECT picks what the copy does:
//   ADV_REDIRECT_SETTLE   settle (after the uploads, before GO) computes each
//                         call's scan into a buffer of the workspace; the
//                         timed call then makes one device copy of it
//   ADV_REDIRECT_TIMER    the timer returns after about a device copy's time a
//                         call, without waiting for the device: DONE goes out
//                         while the work runs on the default stream, which the
//                         download then waits for
//   ADV_REDIRECT_STREAM   one honest scan a call on the default stream, and a
//                         kernel spinning ADV_SPIN_MS on a non-blocking stream;
//                         the timer waits for the default stream only, so the
//                         spin runs on past DONE and the download into the
//                         judge's next step: the other side's turn
// The work of the first two is ADV_REPEAT honest scans a call (adv::scan, one
// after the other): their honest part is that many scans' time, several times
// the reference's. Before the judge's clock covered every step, they were
// timed at about a device copy a call (just above the floor), and the third
// slowed the reference's samples. Now the step the work moved into (RUN -> SET,
// DONE -> OUT, IDLE -> QUIET) is charged back beyond the phase noise; once the
// runner's table and pointer are read-only (issue 39, item 3), the redirection
// itself ends the runner.
#ifndef ADV_REDIRECT04_CUH
#define ADV_REDIRECT04_CUH

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "honest04.cuh"

#define ADV_REDIRECT_SETTLE 1
#define ADV_REDIRECT_TIMER 2
#define ADV_REDIRECT_STREAM 3
#ifndef ADV_REDIRECT
#error "define ADV_REDIRECT before including redirect04.cuh"
#endif
#define ADV_REPEAT 8
#define ADV_SPIN_MS 5.0

// The linker's marks around the program's image.
extern "C" char __executable_start[], __data_start[], _end[];

namespace adv {

// runner_loop.h's runner_backend, as the student copied its layout.
enum { B_INIT, B_ALLOC, B_RELEASE, B_FILL, B_UPLOAD, B_DOWNLOAD, B_COPY, B_IDLE, B_TIMER_START, B_TIMER_STOP, B_PIN,
       B_UNPIN, B_SETTLE, B_COUNT };
struct backend {
  const char *name;
  void *fn[B_COUNT];
};

static backend copy_of;         // the runner's table, changed
static const backend *original; // the runner's own

static int in_image(const void *p) { return (const char *)p >= __executable_start && (const char *)p + 8 <= _end; }

// The runner's pointer to its table: a word of its data that points at a table named "cuda".
static const backend **find_table(void) {
  uintptr_t from = ((uintptr_t)__data_start + 7) & ~(uintptr_t)7;
  for (const backend **p = (const backend **)from; (const char *)(p + 1) <= _end; p++) {
    const backend *b = *p;
    if (b == &copy_of || !in_image(b) || !in_image(b->name) || memcmp(b->name, "cuda", 5)) continue;
    if (in_image(b->fn[B_SETTLE]) && in_image(b->fn[B_TIMER_STOP])) return p;
  }
  return NULL;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

// What each call of a batch works on: its slot (the runner's buffers of call k
// of a batch stay the same within a case), and the case's workspace.
enum { MAX_SLOTS = 8 };
static const unsigned *slot_in[MAX_SLOTS];
static unsigned *slot_out[MAX_SLOTS];
static int n_slots, ready[MAX_SLOTS];
static size_t case_n;
static unsigned char *case_work;

static size_t precomputed_bytes(size_t n) { return round16(n * sizeof(unsigned)); }
static unsigned *precomputed(int s) { return (unsigned *)(case_work + scan_workspace(case_n) + (size_t)s * precomputed_bytes(case_n)); }

// The honest part: ADV_REPEAT scans, one after the other.
static cudaError_t work(const unsigned *in, unsigned *out, size_t n, void *w, cudaStream_t st) {
  for (int r = 0; r < ADV_REPEAT; r++) ADV_TRY(scan(in, out, n, w, st));
  return cudaSuccess;
}

// ---------------------------------------------------------------- ADV_REDIRECT_SETTLE

static void settle(void) {
  ((void (*)(void))original->fn[B_SETTLE])(); // the runner's own, first
  for (int s = 0; s < n_slots; s++) ready[s] = work(slot_in[s], precomputed(s), case_n, case_work, 0) == cudaSuccess;
}

// ---------------------------------------------------------------- ADV_REDIRECT_TIMER, _STREAM

static double t0, copy_ms;
static int calls_in_window;

static void timer_start(void) {
  ((void (*)(void))original->fn[B_TIMER_START])();
  t0 = now_ms();
  calls_in_window = 0;
}

// ADV_REDIRECT_TIMER: about a device copy a call, then DONE, just above the
// floor, whatever still runs. ADV_REDIRECT_STREAM: once the default stream is
// done (the legacy stream's synchronize does not wait for a non-blocking one).
static double timer_stop(void) {
  if (ADV_REDIRECT == ADV_REDIRECT_STREAM) {
    (void)cudaStreamSynchronize(0);
    return now_ms() - t0;
  }
  double until = t0 + 1.1 * copy_ms * calls_in_window;
  while (now_ms() < until) {
  }
  return now_ms() - t0;
}

// Spins one thread until ns nanoseconds of the GPU's global timer have passed.
static __global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

static cudaError_t spin_late(void) {
  static cudaStream_t s;
  if (!s) ADV_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  spin_kernel<<<1, 1, 0, s>>>((unsigned long long)(ADV_SPIN_MS * 1e6));
  return cudaGetLastError();
}

// A device copy of n words, timed once (the floor is a fraction of one).
static cudaError_t time_a_copy(const unsigned *in, unsigned *out, size_t n) {
  cudaEvent_t a, b;
  ADV_TRY(cudaEventCreate(&a));
  ADV_TRY(cudaEventCreate(&b));
  ADV_TRY(cudaEventRecord(a, 0));
  ADV_TRY(cudaMemcpyAsync(out, in, n * sizeof *in, cudaMemcpyDeviceToDevice, 0));
  ADV_TRY(cudaEventRecord(b, 0));
  ADV_TRY(cudaEventSynchronize(b));
  float ms = 0;
  ADV_TRY(cudaEventElapsedTime(&ms, a, b));
  copy_ms = ms;
  ADV_TRY(cudaEventDestroy(a));
  return cudaEventDestroy(b);
}

// ---------------------------------------------------------------- the redirection

static void redirect(void) {
  if (original) return;
  const backend **p = find_table();
  if (!p) { // not found: the calls fail (exclusive_scan)
    fprintf(stderr, "adv: the runner's pointer to its device table was not found\n");
    return;
  }
  original = *p;
  copy_of = *original;
  if (ADV_REDIRECT == ADV_REDIRECT_SETTLE) copy_of.fn[B_SETTLE] = (void *)settle;
  else copy_of.fn[B_TIMER_START] = (void *)timer_start, copy_of.fn[B_TIMER_STOP] = (void *)timer_stop;
  *p = &copy_of; // the write a read-only table refuses
}

static int slot_of(const unsigned *in, unsigned *out) {
  for (int s = 0; s < n_slots; s++)
    if (slot_in[s] == in) return s;
  if (n_slots == MAX_SLOTS) return -1;
  slot_in[n_slots] = in, slot_out[n_slots] = out;
  return n_slots++;
}

} // namespace adv

size_t exclusive_scan_workspace(size_t n) {
  adv::redirect();
  return adv::scan_workspace(n) + adv::MAX_SLOTS * adv::precomputed_bytes(n);
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  // The trick must have applied: an attempt that quietly fell back to honest
  // work would pass its row without showing anything (the runner exits 3).
  if (!adv::original) return cudaErrorNotSupported;
  if (d_work != adv::case_work || n != adv::case_n) { // a new case: new buffers
    adv::case_work = (unsigned char *)d_work, adv::case_n = n, adv::n_slots = 0;
    memset(adv::ready, 0, sizeof adv::ready);
    if (ADV_REDIRECT == ADV_REDIRECT_TIMER) ADV_TRY(adv::time_a_copy(d_in, d_out, n));
  }
  int s = adv::slot_of(d_in, d_out);
  if (ADV_REDIRECT == ADV_REDIRECT_SETTLE) {
    if (s >= 0 && adv::ready[s]) { // computed in settle: one device copy in the window
      adv::ready[s] = 0;
      return cudaMemcpyAsync(d_out, adv::precomputed(s), n * sizeof *d_out, cudaMemcpyDeviceToDevice, 0);
    }
    return adv::work(d_in, d_out, n, d_work, 0); // the first batch of a case: honest
  }
  adv::calls_in_window++;
  if (ADV_REDIRECT == ADV_REDIRECT_TIMER) return adv::work(d_in, d_out, n, d_work, 0);
  ADV_TRY(adv::scan(d_in, d_out, n, d_work)); // ADV_REDIRECT_STREAM: one honest scan, and the spin
  return adv::spin_late();
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::repeats(d_in, n, d_indices, d_count, d_work);
}

#endif
