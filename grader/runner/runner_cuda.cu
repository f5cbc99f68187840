// runner_cuda.cu: the CUDA device of the runner (runner_loop.h): memory,
// copies, waiting for an idle device, and the runner's own timing of the
// student's calls (the judge's clock is the one that counts). No comparison
// happens here: the judge compares the outputs in its own process.
#include "runner_loop.h"

#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runner_cuda_check(cudaError_t err, const char *what, const char *file, int line) {
  if (err == cudaSuccess) return;
  const char *hint = runner_error_hint();
  // One line: the grader quotes the last line of stderr.
  fprintf(stderr, "%s:%d: %s: CUDA error %s: %s%s%s%s\n", file, line, what, cudaGetErrorName(err),
          cudaGetErrorString(err), hint[0] ? " (note: " : "", hint, hint[0] ? ")" : "");
  exit(3);
}

// The cache state every timed batch starts from. Poisoning the outputs just
// before the timer starts leaves L2 full of their dirty lines, and the timed
// calls would write them back to DRAM as they evict them: on an H100 that was
// 7 us of a 43 us compaction at 2^24, more for a kernel that only reads than
// for one that writes, and a student's evict-first loads could leave the
// write-back to the next, untimed, preparation instead
// (the large scan's tuning record in docs/results/, commits f11a0dd..8e043a9, 2026-11-26).
// So before each batch the runner reads a buffer of twice L2's size
// (untimed): L2 then holds its clean lines only, and every call, the
// student's, the reference's and the copy's, starts from the same clean L2.
static uint4 *l2_scratch;
static size_t l2_scratch_vecs;
static unsigned *l2_sink;
static int l2_sweep_blocks;

static __global__ void l2_sweep(const uint4 *p, size_t vecs, unsigned *sink) {
  unsigned x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < vecs; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = p[i];
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x9e3779b9u) *sink = x; // never (the buffer is zeros); keeps the loads
}

static void cu_settle(void) {
  if (!l2_scratch) return;
  l2_sweep<<<l2_sweep_blocks, 512>>>(l2_scratch, l2_scratch_vecs, l2_sink);
  RUNNER_CHECK_LAUNCH();
}

// The CUDA runtime starts some of its threads when a feature is first used (a
// host callback's worker, for one). Once the student's code may run, the sandbox
// refuses new threads (sandbox_close_threads), so each feature a submission may
// use is touched once here, while threads are still allowed: a stream that does
// not wait for the default one, a host callback on it, and a graph launched on it.
static void no_op(void *arg) { (void)arg; }

static void cu_start_runtime_threads(void) {
  cudaStream_t s;
  RUNNER_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  RUNNER_CHECK(cudaLaunchHostFunc(s, no_op, NULL));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  RUNNER_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  RUNNER_CHECK(cudaLaunchHostFunc(s, no_op, NULL));
  RUNNER_CHECK(cudaStreamEndCapture(s, &g));
  RUNNER_CHECK(cudaGraphInstantiate(&ge, g, 0));
  RUNNER_CHECK(cudaGraphLaunch(ge, s));
  RUNNER_CHECK(cudaStreamSynchronize(s));
  RUNNER_CHECK(cudaGraphExecDestroy(ge));
  RUNNER_CHECK(cudaGraphDestroy(g));
  RUNNER_CHECK(cudaStreamDestroy(s));
}

static void cu_init(char *desc, size_t cap) {
  // Every module is loaded now, before the sandbox: with lazy loading the
  // driver would read the fat binary's kernels at their first launch.
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  int count = 0;
  RUNNER_CHECK(cudaGetDeviceCount(&count));
  RUNNER_CHECK(cudaSetDevice(0));
  RUNNER_CHECK(cudaFree(0)); // creates the context now, outside any timing
  cudaDeviceProp p;
  RUNNER_CHECK(cudaGetDeviceProperties(&p, 0));
  snprintf(desc, cap, "%s (sm_%d%d)", p.name, p.major, p.minor);
  if (p.l2CacheSize > 0) { // cu_settle's buffer, zeros, its lines clean after one sweep
    l2_scratch_vecs = 2 * (size_t)p.l2CacheSize / sizeof(uint4);
    l2_sweep_blocks = 4 * p.multiProcessorCount;
    RUNNER_CHECK(cudaMalloc(&l2_scratch, l2_scratch_vecs * sizeof(uint4)));
    RUNNER_CHECK(cudaMalloc(&l2_sink, sizeof *l2_sink));
    RUNNER_CHECK(cudaMemset(l2_scratch, 0, l2_scratch_vecs * sizeof(uint4)));
    cu_settle();
    RUNNER_CHECK(cudaDeviceSynchronize());
  }
  cu_start_runtime_threads();
}

static void *cu_alloc(size_t bytes) {
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // not sticky: clear it, the loop reports the request
    return NULL;
  }
  RUNNER_CHECK(e);
  return p;
}

static void cu_release(void *p) { RUNNER_CHECK(cudaFree(p)); }
static void cu_fill(void *d, int byte, size_t bytes) { RUNNER_CHECK(cudaMemset(d, byte, bytes)); }
static void cu_upload(void *d, const void *h, size_t bytes) {
  if (bytes) RUNNER_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
}
static void cu_download(void *h, const void *d, size_t bytes) {
  if (bytes) RUNNER_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}
static void cu_copy(void *dst, const void *src, size_t bytes) {
  if (bytes) RUNNER_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

// The judge's shared memory, page-locked: a 64 MiB download then takes about
// 2.5 ms on an H100 host instead of several times that through a staging buffer.
// Uploads and downloads are untimed, so pinning changes the grading's speed,
// not what is measured.
static int cu_pin(void *h, size_t bytes) {
  cudaError_t e = cudaHostRegister(h, bytes, cudaHostRegisterDefault);
  if (e == cudaSuccess) return 0;
  (void)cudaGetLastError(); // not sticky: the copies work unpinned too
  return -1;
}
static void cu_unpin(void *h) { RUNNER_CHECK(cudaHostUnregister(h)); }

// The whole device, not one stream: work the student's code left on a stream
// of its own (non-blocking, cudaStreamPerThread), a graph or a host callback
// all finish before this returns. Any asynchronous fault surfaces here too.
static void cu_idle(void) {
  RUNNER_CHECK(cudaDeviceSynchronize());
  RUNNER_CHECK(cudaGetLastError());
}

// The runner's own clock, the host's: from just before the first call to the
// moment the device is idle after the last. CUDA events would not do: a stop
// event on the default stream does not wait for a non-blocking stream, and
// one recorded after the wait only adds a round trip to the GPU. The judge
// times GO -> DONE on its own clock as well, and a sample's time is the larger
// of the two (grader/judge/session.c).
static double timer_t0;

static void cu_timer_start(void) { timer_t0 = clock_now_s(); }

static double cu_timer_stop_ms(void) {
  cu_idle();
  return 1e3 * (clock_now_s() - timer_t0);
}

static const runner_backend cuda_backend = {
    "cuda", cu_init, cu_alloc, cu_release, cu_fill, cu_upload, cu_download, cu_copy, cu_idle, cu_timer_start,
    cu_timer_stop_ms, cu_pin, cu_unpin, cu_settle,
};

int runner_cuda_main(int argc, char **argv, const runner_assignment *r) { return runner_main(argc, argv, r, &cuda_backend); }
