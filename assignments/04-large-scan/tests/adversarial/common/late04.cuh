// late04.cuh: the honest work of assignment 04, started so that the call
// returns before it is done (assignments/04-large-scan/tests/adversarial/README.md, the 04-late-*
// rows). Each call orders a side stream after the default stream by an event,
// puts the honest scan (or find_repeats) on it, then ADV_EXTRA_MS more of work
// that the runner's old timer never saw, and returns at once. ADV_LATE picks
// the side stream and the extra work:
//   ADV_LATE_STREAM      a non-blocking stream of its own, a spinning kernel
//   ADV_LATE_PER_THREAD  cudaStreamPerThread, a spinning kernel
//   ADV_LATE_GRAPH       the work and the spin captured into a CUDA graph,
//                        launched on a non-blocking stream
//   ADV_LATE_CALLBACK    a non-blocking stream, then a host callback that
//                        busy-waits on the CPU
// Before the judge's clock, a runner whose stop event sat on the default stream
// recorded only the launches: 0.0164 ms for a 2^24 scan that took 0.5 ms. Now
// the window ends when the device is idle, so every sample of these attempts
// is at least ADV_EXTRA_MS a call (the table's "slow" verdict).
#ifndef ADV_LATE04_CUH
#define ADV_LATE04_CUH

#include <time.h>

#include "honest04.cuh"

#define ADV_LATE_STREAM 1
#define ADV_LATE_PER_THREAD 2
#define ADV_LATE_GRAPH 3
#define ADV_LATE_CALLBACK 4
#ifndef ADV_LATE
#error "define ADV_LATE before including late04.cuh"
#endif
#define ADV_EXTRA_MS 0.5

namespace adv {

// Spins one thread until ns nanoseconds of the GPU's global timer have passed.
static __global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

static void CUDART_CB spin_host(void *arg) {
  (void)arg;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) * 1e-6 < ADV_EXTRA_MS);
}

static cudaStream_t side_stream(void) {
  static cudaStream_t s;
  if (ADV_LATE == ADV_LATE_PER_THREAD) return cudaStreamPerThread;
  if (!s && cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) s = 0;
  return s;
}

// The extra work after the honest work, on the same stream.
static cudaError_t extra(cudaStream_t s) {
  if (ADV_LATE == ADV_LATE_CALLBACK) return cudaLaunchHostFunc(s, spin_host, NULL);
  spin_kernel<<<1, 1, 0, s>>>((unsigned long long)(ADV_EXTRA_MS * 1e6));
  return cudaGetLastError();
}

// Runs work(stream) and the extra late: the call returns before either ends.
template <typename Work> static cudaError_t late(Work work) {
  static cudaEvent_t ev;
  if (!ev) ADV_TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  cudaStream_t s = side_stream();
  ADV_TRY(cudaEventRecord(ev, 0)); // the inputs are the default stream's
  ADV_TRY(cudaStreamWaitEvent(s, ev, 0));
  if (ADV_LATE != ADV_LATE_GRAPH) {
    ADV_TRY(work(s));
    return extra(s);
  }
  static cudaStream_t cap;
  if (!cap) ADV_TRY(cudaStreamCreateWithFlags(&cap, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  ADV_TRY(cudaStreamBeginCapture(cap, cudaStreamCaptureModeRelaxed));
  ADV_TRY(work(cap));
  ADV_TRY(extra(cap));
  ADV_TRY(cudaStreamEndCapture(cap, &g));
  ADV_TRY(cudaGraphInstantiate(&ge, g, 0));
  ADV_TRY(cudaGraphLaunch(ge, s));
  ADV_TRY(cudaGraphExecDestroy(ge)); // released once the launch is done
  return cudaGraphDestroy(g);
}

} // namespace adv

size_t exclusive_scan_workspace(size_t n) { return adv::scan_workspace(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return adv::late([=](cudaStream_t s) { return adv::scan(d_in, d_out, n, d_work, s); });
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return adv::repeats_workspace(n); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  return adv::late([=](cudaStream_t s) { return adv::repeats(d_in, n, d_indices, d_count, d_work, s); });
}

#endif
