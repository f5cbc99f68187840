// main.cu: the course-owned harness of assignment 01 (warp scan). Do not edit.
//
// Each warp scans groups of 32 consecutive elements with the student's
// warp_scan_* function, so out[i] is the inclusive scan of in[i]'s 32-element
// group. The last group is padded with zeros inside the kernel.
// Cost: n ints read, n ints written; the copy of the same 8n bytes is the floor.
//
//   build/<src>/01-warp-scan/harness --list
//   build/<src>/01-warp-scan/harness --variant shfl --case n2^24 --check
//
// The student's file is compiled into this translation unit (the build puts
// starter/ or solutions/ on the include path), so each kernel's PTX shows the
// student's code inlined: that is what `make ptx A=01` prints and the ptx
// checks count.
#include "harness.h"
#include "warp_scan.h"

#include "warp_scan.cu"

enum { BLOCK = 256, WARPS_PER_BLOCK = BLOCK / 32, ITEMS = 4 };

enum variant { SCRATCH, SCRATCH_REGISTER, SYNCWARP, SHFL };

// The version table, in enum order: harness, tests and benchmarks iterate it.
static const hx_variant VARIANTS[] = {
    {"scratch", "task 1: data[32+lane] += data[32+lane-k] through shared scratch"},
    {"scratch_register", "task 2: the scratch scan with a register accumulator"},
    {"syncwarp", "task 3: the scratch scan ordered by __syncwarp()"},
    {"shfl", "task 3: __shfl_up_sync, no shared memory"},
};

// The variant is a compile-time constant in each kernel, so the switch folds
// away and each kernel's PTX holds exactly one version.
static __device__ __forceinline__ int scan_one(int variant, int v, int *scratch) {
  switch (variant) {
  case SCRATCH: return warp_scan_scratch(v, scratch);
  case SCRATCH_REGISTER: return warp_scan_scratch_register(v, scratch);
  case SYNCWARP: return warp_scan_syncwarp(v, scratch);
  default: return warp_scan_shfl(v, scratch);
  }
}

// Each block covers ITEMS * BLOCK consecutive elements: thread t handles
// elements t, t + BLOCK, t + 2 BLOCK, ... of its block's span, so every warp
// still scans 32 consecutive elements, every load and store is coalesced, and
// all ITEMS loads are issued before the first scan needs its value (memory-level
// parallelism: a scan is bandwidth-bound, see `make bench A=01`).
static __device__ __forceinline__ void scan_groups(int variant, const int *in, int *out, size_t n) {
  __shared__ int scratch[WARPS_PER_BLOCK * 64];
  int *mine = scratch + (threadIdx.x / 32) * 64;
  size_t base = (size_t)blockIdx.x * (ITEMS * BLOCK) + threadIdx.x;
  int v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    size_t i = base + (size_t)k * BLOCK;
    v[k] = i < n ? __ldcs(in + i) : 0; // streamed: read once, keep it out of L2
  }
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    size_t i = base + (size_t)k * BLOCK;
    int s = scan_one(variant, v[k], mine);
    if (i < n) __stcs(out + i, s);
  }
}

// The timed kernels: ITEMS groups per thread.
extern "C" __global__ void scan4_scratch(const int *in, int *out, size_t n) { scan_groups(SCRATCH, in, out, n); }
extern "C" __global__ void scan4_scratch_register(const int *in, int *out, size_t n) {
  scan_groups(SCRATCH_REGISTER, in, out, n);
}
extern "C" __global__ void scan4_syncwarp(const int *in, int *out, size_t n) { scan_groups(SYNCWARP, in, out, n); }
extern "C" __global__ void scan4_shfl(const int *in, int *out, size_t n) { scan_groups(SHFL, in, out, n); }

typedef void (*scan_kernel)(const int *, int *, size_t);
static const scan_kernel KERNELS[] = {scan4_scratch, scan4_scratch_register, scan4_syncwarp, scan4_shfl};

// PTX probes: one warp scan per thread and nothing else, so each one's PTX is
// exactly one call of the student's function. These are what `make ptx A=01`
// shows first and what the ptx checks of grade.conf count (the timed kernels
// above inline the same function ITEMS times). They are compiled, not launched.
static __device__ __forceinline__ void probe(int variant, const int *in, int *out) {
  __shared__ int scratch[WARPS_PER_BLOCK * 64];
  out[threadIdx.x] = scan_one(variant, in[threadIdx.x], scratch + (threadIdx.x / 32) * 64);
}
extern "C" __global__ void scan_scratch(const int *in, int *out) { probe(SCRATCH, in, out); }
extern "C" __global__ void scan_scratch_register(const int *in, int *out) { probe(SCRATCH_REGISTER, in, out); }
extern "C" __global__ void scan_syncwarp(const int *in, int *out) { probe(SYNCWARP, in, out); }
extern "C" __global__ void scan_shfl(const int *in, int *out) { probe(SHFL, in, out); }

#define MAX_N (1ULL << 28)

static const hx_case CASES[] = {
    {"n1", 1, 11, 5},          {"n31", 31, 12, 5},         {"n32", 32, 13, 5},
    {"n33", 33, 14, 5},        {"n1000", 1000, 15, 5},     {"n65537", 65537, 16, 5},
    {"n2^20+3", (1 << 20) + 3, 17, 5}, {"n2^24", 1 << 24, 18, 50}, {"n2^28", MAX_N, 19, 20},
};

typedef struct state {
  int *d_in, *d_out;
  int32_t *ref;
  size_t n;
} state;

static void *setup(const hx_spec *spec, hx_io *io) {
  state *s = (state *)hx_malloc(sizeof *s);
  s->n = spec->n;
  int32_t *in = hx_random_ints(spec->seed, s->n, -1000, 1000);
  s->d_in = (int *)hx_dev_malloc(s->n * sizeof(int));
  s->d_out = (int *)hx_dev_malloc(s->n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(s->d_in, in, s->n * sizeof(int), cudaMemcpyHostToDevice));
  s->ref = NULL;
  if (spec->check) {
    s->ref = (int32_t *)hx_malloc(s->n * sizeof(int32_t));
    scan_cpu_i32(in, s->ref, s->n, 32, SCAN_INCLUSIVE);
  }
  free(in);
  io->out[0].dev = s->d_out;
  io->out[0].ref = s->ref;
  io->out[0].count = s->n;
  io->n_out = 1;
  return s;
}

static void run(void *p, int variant) {
  state *s = (state *)p;
  if (s->n == 0) return;
  size_t blocks = (s->n + ITEMS * BLOCK - 1) / (ITEMS * BLOCK);
  KERNELS[variant]<<<(unsigned)blocks, BLOCK>>>(s->d_in, s->d_out, s->n);
  CUDA_CHECK_LAUNCH();
}

static void teardown(void *p) {
  state *s = (state *)p;
  CUDA_CHECK(cudaFree(s->d_in));
  CUDA_CHECK(cudaFree(s->d_out));
  free(s->ref);
  free(s);
}

// Napkin math: every element is read once and written once.
static double bytes_moved(uint64_t n) { return 8.0 * (double)n; }

int main(int argc, char **argv) {
  static const hx_assignment a = {
      "01-warp-scan", VARIANTS, sizeof VARIANTS / sizeof *VARIANTS, CASES, sizeof CASES / sizeof *CASES, MAX_N,
      "n2^24", bytes_moved, "n ints read + n ints written", setup, run, teardown,
  };
  return hx_main(argc, argv, &a);
}
