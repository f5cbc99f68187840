/* runner.h: what an assignment's runner.cu uses: the untrusted side of grading.
 *
 * The runner is the process that holds the student's code. It is started by the
 * judge (grader/judge/), maps the shared memory the judge fills with each call's
 * inputs, puts them on the device, calls the student's entry point when the
 * judge says GO, answers DONE once the device is idle (the judge times GO to
 * DONE on its own clock), and hands the raw outputs back. It holds no CPU
 * reference, no expected output and no verdict: it cannot say whether an output
 * is right, and nothing it writes is read as a result. After the CUDA context is
 * made it enters a sandbox (grader/runner/sandbox.c): no files, no programs, no
 * processes, no sockets, no tracing, and no new threads.
 *
 * An assignment's runner.cu fills an runner_assignment with its name, its variant slugs
 * (assignments/NN/variants.h, shared with the judge's spec) and `call`, which maps
 * the buffers of one call onto the student's entry point, and ends with
 * RUNNER_MAIN. The student's file is compiled on its own and linked in.
 *
 * Every name here starts with runner_ or RUNNER_, so a student's helper may be called
 * `run` or `setup`. Exit codes: 0 done, 2 bad arguments or a broken protocol,
 * 3 CUDA error or out of memory; anything else is a crash. */
#ifndef SCANLAB_RUNNER_H
#define SCANLAB_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#include <cuda_runtime.h>
/* Checks a CUDA call; on failure prints "file:line: call: error" and exits 3.
 * Never compiled out. */
#define RUNNER_CHECK(call) runner_cuda_check((call), #call, __FILE__, __LINE__)
/* After every kernel launch: catches bad launch configurations at once. */
#define RUNNER_CHECK_LAUNCH() runner_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
void runner_cuda_check(cudaError_t err, const char *what, const char *file, int line);
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define RUNNER_MAX_BUFS 4

/* One call of the student's code: the judge's buffers, on the device. */
typedef struct runner_call {
  int variant; /* index into the runner's slugs */
  uint64_t n, param; /* the case's size and knob (segment length, image size) */
  const void *in[RUNNER_MAX_BUFS];
  void *out[RUNNER_MAX_BUFS];
  size_t in_bytes[RUNNER_MAX_BUFS], out_bytes[RUNNER_MAX_BUFS]; /* device sizes */
  void *work;        /* the workspace, kept between calls of a case (NULL when 0 bytes) */
  size_t work_bytes;
} runner_call;

typedef struct runner_assignment {
  const char *name; /* the assignment's folder name, "NN-name": checked by the judge */
  const char *const *slugs; /* the variants, then (bench build) the baselines */
  int n_slugs;
  /* Optional: the device workspace a case needs (the student's function). The
   * runner allocates it once per case, after the sandbox is up, fills it with
   * 0xA5 bytes, and passes it to every call. */
  size_t (*workspace_bytes)(int variant, uint64_t n, uint64_t param);
  /* The timed region: one call, every launch of it. */
  void (*call)(const runner_call *c);
} runner_assignment;

int runner_cuda_main(int argc, char **argv, const runner_assignment *r);

#define RUNNER_MAIN(runner) \
  int main(int argc, char **argv) { return runner_cuda_main(argc, argv, &(runner)); }

#ifdef __cplusplus
}
#endif
#endif
