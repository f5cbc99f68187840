// runner.cu: the course-owned runner of assignment 01 (warp scan). Do not edit.
//
// The untrusted side of grading (grader/runner/runner.h): this file, with your
// warp_scan.cu included at its end (below), makes
// build/<src>/01-warp-scan/runner; your file is also compiled alone into
// student.o, which the build inspects. It holds the timed kernels and launches
// them on the judge's buffers; the judge made the input, and the judge alone
// compares what the kernels wrote. Every call gets a new input.
//
// Each warp scans groups of 32 consecutive elements with the student's
// warp_scan_* function, so out[i] is the inclusive scan of in[i]'s 32-element
// group. The last group is padded with zeros inside the kernel.
// Cost: n ints read, n ints written; the copy of the same 8n bytes is the floor.
// Every course-owned name here starts with ws_ or WS_ (runner.h's with runner_ or RUNNER_).
//
//   build/<src>/01-warp-scan/runner --list      (runs the judge on this runner)
//   build/<src>/01-warp-scan/runner --variant shfl --case n2^24
//
// Your file is included at the end of this one, so the kernels here inline your
// functions. What `make ptx A=01` prints and the ptx checks count is this file's
// PTX: above all its probe kernels, one call of your function each.
#include "runner.h"
#include "variants.h"
#include "warp_scan.h"

enum { WS_BLOCK = 256, WS_WARPS_PER_BLOCK = WS_BLOCK / 32, WS_ITEMS = 4 };

static_assert(WS_GROUP == 32, "a warp scans 32 elements");

// The variant is a compile-time constant in each kernel, so the switch folds
// away and each kernel calls exactly one version.
static __device__ __forceinline__ int ws_scan_one(int variant, int v, int *scratch) {
  switch (variant) {
  case WS_SCRATCH: return warp_scan_scratch(v, scratch);
  case WS_SCRATCH_REGISTER: return warp_scan_scratch_register(v, scratch);
  case WS_SYNCWARP: return warp_scan_syncwarp(v, scratch);
  default: return warp_scan_shfl(v, scratch);
  }
}

// Each block covers ITEMS * BLOCK consecutive elements: thread t handles
// elements t, t + BLOCK, t + 2 BLOCK, ... of its block's span, so every warp
// still scans 32 consecutive elements, every load and store is coalesced, and
// all ITEMS loads are issued before the first scan needs its value (memory-level
// parallelism: a scan is bandwidth-bound, see `make bench A=01`).
static __device__ __forceinline__ void ws_scan_groups(int variant, const int *in, int *out, size_t n) {
  __shared__ int ws_scratch[WS_WARPS_PER_BLOCK * 64];
  int *mine = ws_scratch + (threadIdx.x / 32) * 64;
  size_t base = (size_t)blockIdx.x * (WS_ITEMS * WS_BLOCK) + threadIdx.x;
  int v[WS_ITEMS];
#pragma unroll
  for (int k = 0; k < WS_ITEMS; k++) {
    size_t i = base + (size_t)k * WS_BLOCK;
    v[k] = i < n ? __ldcs(in + i) : 0; // streamed: read once, keep it out of L2
  }
#pragma unroll
  for (int k = 0; k < WS_ITEMS; k++) {
    size_t i = base + (size_t)k * WS_BLOCK;
    int s = ws_scan_one(variant, v[k], mine);
    if (i < n) __stcs(out + i, s);
  }
}

// The timed kernels: ITEMS groups per thread.
extern "C" __global__ void scan4_scratch(const int *in, int *out, size_t n) { ws_scan_groups(WS_SCRATCH, in, out, n); }
extern "C" __global__ void scan4_scratch_register(const int *in, int *out, size_t n) {
  ws_scan_groups(WS_SCRATCH_REGISTER, in, out, n);
}
extern "C" __global__ void scan4_syncwarp(const int *in, int *out, size_t n) {
  ws_scan_groups(WS_SYNCWARP, in, out, n);
}
extern "C" __global__ void scan4_shfl(const int *in, int *out, size_t n) { ws_scan_groups(WS_SHFL, in, out, n); }

// PTX probes: one warp scan per thread and nothing else, so each one's PTX is
// exactly one inlined call of the student's function. These are what
// `make ptx A=01` shows first and what the ptx checks of grade.conf count (the
// timed kernels above inline the same function ITEMS times). Compiled, never
// launched.
static __device__ __forceinline__ void ws_probe(int variant, const int *in, int *out) {
  __shared__ int ws_scratch[WS_WARPS_PER_BLOCK * 64];
  out[threadIdx.x] = ws_scan_one(variant, in[threadIdx.x], ws_scratch + (threadIdx.x / 32) * 64);
}
extern "C" __global__ void scan_scratch(const int *in, int *out) { ws_probe(WS_SCRATCH, in, out); }
extern "C" __global__ void scan_scratch_register(const int *in, int *out) { ws_probe(WS_SCRATCH_REGISTER, in, out); }
extern "C" __global__ void scan_syncwarp(const int *in, int *out) { ws_probe(WS_SYNCWARP, in, out); }
extern "C" __global__ void scan_shfl(const int *in, int *out) { ws_probe(WS_SHFL, in, out); }

typedef void (*ws_kernel)(const int *, int *, size_t);
// In variants.h's order.
static const ws_kernel WS_KERNELS[] = {scan4_scratch, scan4_scratch_register, scan4_syncwarp, scan4_shfl};
static_assert(sizeof WS_KERNELS / sizeof *WS_KERNELS == WS_N_VARIANTS, "one kernel per variant");

#define WS_SLUG(id, slug, summary) slug,
static const char *const ws_slugs[] = {WS_VARIANT_LIST(WS_SLUG)};
#undef WS_SLUG

// The timed region: one launch of the variant's kernel.
static void ws_call(const runner_call *c) {
  if (c->n == 0) return;
  size_t blocks = (c->n + WS_ITEMS * WS_BLOCK - 1) / (WS_ITEMS * WS_BLOCK);
  WS_KERNELS[c->variant]<<<(unsigned)blocks, WS_BLOCK>>>((const int *)c->in[0], (int *)c->out[0], (size_t)c->n);
  RUNNER_CHECK_LAUNCH();
}

static const runner_assignment ws_runner = {
    .name = "01-warp-scan",
    .slugs = ws_slugs,
    .n_slugs = (int)(sizeof ws_slugs / sizeof *ws_slugs),
    .workspace_bytes = NULL,
    .call = ws_call,
};

RUNNER_MAIN(ws_runner)

// ---------------------------------------------------------------- the student's file

// Last, so that nothing it defines can change the course code above: the
// kernels above call your __device__ functions through the header's
// declarations, and the compiler inlines them here, as it would in one file of
// your own. (Compiled in an object of its own, they would be real calls through
// generic pointers: 2 to 3.5 times slower on the H100, with link-time
// optimisation the only cure, which the build hosts lack.) Your file is also
// compiled alone into student.o, with the same flags, and that object is what
// the build inspects (grader/inspect/inspect-student.sh). The runner is the untrusted side
// either way: it holds nothing of the judge's.
#include "warp_scan.cu"

