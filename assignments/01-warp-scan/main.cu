// main.cu: the course-owned harness of assignment 01 (warp scan). Do not edit.
//
// Each warp scans groups of 32 consecutive elements with the student's
// warp_scan_* function, so out[i] is the inclusive scan of in[i]'s 32-element
// group. The last group is padded with zeros inside the kernel.
// Cost: n ints read, n ints written; the copy of the same 8n bytes is the floor.
// Every course-owned name here starts with hx_ or HX_: your file shares this
// translation unit, so you may name your helpers as you like.
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

enum { HX_BLOCK = 256, HX_WARPS_PER_BLOCK = HX_BLOCK / 32, HX_ITEMS = 4 };

enum hx_variant_id { HX_SCRATCH, HX_SCRATCH_REGISTER, HX_SYNCWARP, HX_SHFL };

// The version table, in enum order: harness, tests and benchmarks iterate it.
static const hx_variant HX_VARIANTS[] = {
    {"scratch", "task 1: data[32+lane] += data[32+lane-k] through shared scratch"},
    {"scratch_register", "task 2: the scratch scan with a register accumulator"},
    {"syncwarp", "task 3: the scratch scan ordered by __syncwarp()"},
    {"shfl", "task 3: __shfl_up_sync, no shared memory"},
};

// The variant is a compile-time constant in each kernel, so the switch folds
// away and each kernel's PTX holds exactly one version.
static __device__ __forceinline__ int hx_scan_one(int variant, int v, int *scratch) {
  switch (variant) {
  case HX_SCRATCH: return warp_scan_scratch(v, scratch);
  case HX_SCRATCH_REGISTER: return warp_scan_scratch_register(v, scratch);
  case HX_SYNCWARP: return warp_scan_syncwarp(v, scratch);
  default: return warp_scan_shfl(v, scratch);
  }
}

// Each block covers ITEMS * BLOCK consecutive elements: thread t handles
// elements t, t + BLOCK, t + 2 BLOCK, ... of its block's span, so every warp
// still scans 32 consecutive elements, every load and store is coalesced, and
// all ITEMS loads are issued before the first scan needs its value (memory-level
// parallelism: a scan is bandwidth-bound, see `make bench A=01`).
static __device__ __forceinline__ void hx_scan_groups(int variant, const int *in, int *out, size_t n) {
  __shared__ int hx_scratch[HX_WARPS_PER_BLOCK * 64];
  int *mine = hx_scratch + (threadIdx.x / 32) * 64;
  size_t base = (size_t)blockIdx.x * (HX_ITEMS * HX_BLOCK) + threadIdx.x;
  int v[HX_ITEMS];
#pragma unroll
  for (int k = 0; k < HX_ITEMS; k++) {
    size_t i = base + (size_t)k * HX_BLOCK;
    v[k] = i < n ? __ldcs(in + i) : 0; // streamed: read once, keep it out of L2
  }
#pragma unroll
  for (int k = 0; k < HX_ITEMS; k++) {
    size_t i = base + (size_t)k * HX_BLOCK;
    int s = hx_scan_one(variant, v[k], mine);
    if (i < n) __stcs(out + i, s);
  }
}

// The timed kernels: ITEMS groups per thread.
extern "C" __global__ void scan4_scratch(const int *in, int *out, size_t n) { hx_scan_groups(HX_SCRATCH, in, out, n); }
extern "C" __global__ void scan4_scratch_register(const int *in, int *out, size_t n) {
  hx_scan_groups(HX_SCRATCH_REGISTER, in, out, n);
}
extern "C" __global__ void scan4_syncwarp(const int *in, int *out, size_t n) { hx_scan_groups(HX_SYNCWARP, in, out, n); }
extern "C" __global__ void scan4_shfl(const int *in, int *out, size_t n) { hx_scan_groups(HX_SHFL, in, out, n); }

typedef void (*hx_kernel)(const int *, int *, size_t);
static const hx_kernel HX_KERNELS[] = {scan4_scratch, scan4_scratch_register, scan4_syncwarp, scan4_shfl};

// PTX probes: one warp scan per thread and nothing else, so each one's PTX is
// exactly one call of the student's function. These are what `make ptx A=01`
// shows first and what the ptx checks of grade.conf count (the timed kernels
// above inline the same function ITEMS times). They are compiled, not launched.
static __device__ __forceinline__ void hx_probe(int variant, const int *in, int *out) {
  __shared__ int hx_scratch[HX_WARPS_PER_BLOCK * 64];
  out[threadIdx.x] = hx_scan_one(variant, in[threadIdx.x], hx_scratch + (threadIdx.x / 32) * 64);
}
extern "C" __global__ void scan_scratch(const int *in, int *out) { hx_probe(HX_SCRATCH, in, out); }
extern "C" __global__ void scan_scratch_register(const int *in, int *out) { hx_probe(HX_SCRATCH_REGISTER, in, out); }
extern "C" __global__ void scan_syncwarp(const int *in, int *out) { hx_probe(HX_SYNCWARP, in, out); }
extern "C" __global__ void scan_shfl(const int *in, int *out) { hx_probe(HX_SHFL, in, out); }

static const hx_case HX_CASES[] = {
    {"n1", 1, 11, 5},          {"n31", 31, 12, 5},         {"n32", 32, 13, 5},
    {"n33", 33, 14, 5},        {"n1000", 1000, 15, 5},     {"n65537", 65537, 16, 5},
    {"n2^20+3", (1 << 20) + 3, 17, 5}, {"n2^24", 1 << 24, 18, 50}, {"n2^28", 1 << 28, 19, 20},
};

typedef struct hx_state {
  const int *in;
  int *out;
  size_t n;
} hx_state;

static void *hx_setup(const hx_spec *spec, hx_io *io) {
  hx_state *s = (hx_state *)hx_malloc(sizeof *s);
  s->n = spec->n;
  int32_t *in = hx_random_ints(spec->seed, s->n, -1000, 1000);
  s->in = (const int *)hx_dev_upload(in, s->n * sizeof(int));
  s->out = (int *)hx_dev_malloc(s->n * sizeof(int));
  int32_t *expect = NULL;
  if (spec->check) { // in place: the input's host copy is not needed again
    hx_scan_cpu(in, in, s->n, 32, 0);
    expect = in;
  }
  hx_add_output(io, "out", HX_INT32, s->out, expect, s->n);
  return s;
}

static void hx_run(void *p, int variant) {
  hx_state *s = (hx_state *)p;
  if (s->n == 0) return;
  size_t blocks = (s->n + HX_ITEMS * HX_BLOCK - 1) / (HX_ITEMS * HX_BLOCK);
  HX_KERNELS[variant]<<<(unsigned)blocks, HX_BLOCK>>>(s->in, s->out, s->n);
  HX_CHECK_LAUNCH();
}

// Cost: every element is read once and written once (the driver's default napkin math, 8n bytes).
static const hx_assignment HX_01 = {
    .name = "01-warp-scan",
    .variants = HX_VARIANTS,
    .n_variants = sizeof HX_VARIANTS / sizeof *HX_VARIANTS,
    .cases = HX_CASES,
    .n_cases = sizeof HX_CASES / sizeof *HX_CASES,
    .max_n = 1ULL << 28,
    .bench_case = "n2^24",
    .setup = hx_setup,
    .run = hx_run,
};

HX_MAIN(HX_01)
