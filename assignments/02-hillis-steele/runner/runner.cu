// runner.cu: the course-owned runner of assignment 02 (Hillis-Steele block scan). Do not edit.
//
// The untrusted side of grading (grader/runner/runner.h): this file, with your
// hillis_steele.cu included at its end, makes
// build/<src>/02-hillis-steele/runner; your file is also compiled alone into
// student.o, which the build inspects. It maps one call's buffers onto your
// code; the judge made the input, and the judge alone compares what was
// written. Every call gets a new input.
//
// The input is a batch of segments of L ints each (n = batch * L, 1 <= L <= 1024);
// every segment is scanned on its own. A case's param field is L; an ad-hoc
// `--n N` run uses L = min(N, 1024), and N must then be a multiple of L
// (variants.h: hs_segment_length; the judge refuses any other n).
//
// Versions (variants.h; `--list` prints them):
//   hillis_steele_inclusive  task 1: your shared-memory scan, two buffers, one barrier per step
//   hillis_steele_exclusive  task 2: the same, exclusive
//   hillis_steele_global     task 3: one kernel launch per step over two global buffers
//   warp_shfl_block_scan     course-owned, not a task: a memory-bound block scan, the bar
//                            that `make bench A=02` compares everything with
// For the first two, the kernel below does the global loads and stores (one
// block per segment, thread t <-> element t) and calls your __device__
// function; for the third, the runner calls your hs_scan_global and times all
// the launches it makes.
// Cost floor: n ints read, n ints written; a copy of the same 8n bytes is the ceiling.
//
//   build/<src>/02-hillis-steele/runner --list      (runs the judge on this runner)
//   build/<src>/02-hillis-steele/runner --variant hillis_steele_inclusive --case L1000
//   build/<src>/02-hillis-steele/runner --bench
//
// Your file is included at the end of this one, so the kernels here inline your
// functions; what `make ptx A=02` prints and the ptx checks count is this file's
// PTX.
#include "hillis_steele.h"
#include "runner.h"
#include "variants.h"

static_assert(HS_MAX_SEGMENT == HS_MAX_L, "variants.h and hillis_steele.h agree on the longest segment");

// ---------------------------------------------------------------- kernels

// Tasks 1 and 2. One block per segment, blockDim.x = L rounded up to whole
// warps, thread t <-> element t of the segment. Every thread calls the
// student's function (the padding threads with the identity 0), so barriers
// inside it are reached by the whole block. The variant is a compile-time
// constant in each kernel, so each kernel calls exactly one version.
static __device__ __forceinline__ void hs_scan_segment(int variant, const int *in, int *out, int L) {
  __shared__ int hs_buf[2 * HS_MAX_L];
  const int t = threadIdx.x;
  const size_t i = (size_t)blockIdx.x * L + t;
  int v = t < L ? in[i] : 0;
  int s = variant == HS_EXCLUSIVE ? hs_block_scan_exclusive(v, hs_buf, L) : hs_block_scan_inclusive(v, hs_buf, L);
  if (t < L) out[i] = s;
}

extern "C" __global__ void hs_inclusive(const int *in, int *out, int L) { hs_scan_segment(HS_INCLUSIVE, in, out, L); }
extern "C" __global__ void hs_exclusive(const int *in, int *out, int L) { hs_scan_segment(HS_EXCLUSIVE, in, out, L); }

// The bar: an inclusive block scan that runs at nearly the speed of a copy.
// Course-owned, the same in the student and reference builds; read it after
// task 3 and compare its row in `make bench A=02` with yours.
//
// Mapping: one block per segment, HS_SHFL_ITEMS = 4 consecutive elements per
// thread (thread t <-> elements 4t..4t+3), blockDim.x = ceil(L / 4) rounded up
// to whole warps (256 threads for L = 1024). When L is a multiple of 4 each
// thread moves its 4 ints with one 16-byte load and one 16-byte store (the
// segment starts 16-byte aligned then); otherwise with 4 scalar accesses.
// Steps: a sequential scan of the thread's 4 values in registers, a 5-step
// __shfl_up_sync scan of the thread totals in each warp, one barrier to publish
// the warp totals, then every warp scans the (at most 8) warp totals itself, so
// no second barrier is needed.
// Cost: about 2 additions per element, 8n bytes of DRAM traffic (each element
// read once and written once), 32 bytes of shared memory per warp: memory-bound.
enum { HS_SHFL_ITEMS = 4, HS_MAX_WARPS = 32, HS_WARP = 32 };
#define HS_FULL_MASK 0xffffffffu

static __device__ __forceinline__ int hs_warp_inclusive_scan(int x, int lane) {
#pragma unroll
  for (int k = 1; k < 32; k *= 2) {
    int up = __shfl_up_sync(HS_FULL_MASK, x, k); // lane - k's x; lanes below k get their own back
    if (lane >= k) x += up;
  }
  return x;
}

extern "C" __global__ void warp_shfl_block_scan(const int *in, int *out, int L) {
  __shared__ int hs_warp_total[HS_MAX_WARPS];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32, warps = blockDim.x / 32;
  const int first = t * HS_SHFL_ITEMS; // this thread's first element in the segment
  const int *seg_in = in + (size_t)blockIdx.x * L;
  int *seg_out = out + (size_t)blockIdx.x * L;
  const bool vec = L % HS_SHFL_ITEMS == 0; // the same for the whole block

  int x[HS_SHFL_ITEMS];
  if (vec && first < L) {
    int4 q = *(const int4 *)(seg_in + first);
    x[0] = q.x, x[1] = q.y, x[2] = q.z, x[3] = q.w;
  } else {
#pragma unroll
    for (int j = 0; j < HS_SHFL_ITEMS; j++) x[j] = first + j < L ? seg_in[first + j] : 0;
  }
#pragma unroll
  for (int j = 1; j < HS_SHFL_ITEMS; j++) x[j] += x[j - 1]; // the thread's own inclusive scan
  const int total = x[HS_SHFL_ITEMS - 1];
  const int upto_thread = hs_warp_inclusive_scan(total, lane); // this warp's threads 0..lane
  // This warp's threads 0..lane-1, taken from the lane below rather than by
  // subtracting total: the exclusive result of a scan is a shift, not a
  // difference (handout 02, task 2: subtraction needs an inverse, which max or
  // min do not have).
  int before_thread = __shfl_up_sync(HS_FULL_MASK, upto_thread, 1);
  if (lane == 0) before_thread = 0;

  if (lane == 31) hs_warp_total[warp] = upto_thread;
  // Orders the warp totals' stores before the loads below, in every warp.
  // hs_warp_total is written once per launch, so no barrier is needed after the loads.
  __syncthreads();
  int w = hs_warp_inclusive_scan(lane < warps ? hs_warp_total[lane] : 0, lane); // warps 0..lane
  int before_warp = __shfl_sync(HS_FULL_MASK, w, warp > 0 ? warp - 1 : 0);  // warps 0..warp-1
  if (warp == 0) before_warp = 0;
  const int before = before_warp + before_thread; // every element before this thread's first
#pragma unroll
  for (int j = 0; j < HS_SHFL_ITEMS; j++) x[j] += before;

  if (vec && first < L) {
    *(int4 *)(seg_out + first) = make_int4(x[0], x[1], x[2], x[3]);
  } else {
#pragma unroll
    for (int j = 0; j < HS_SHFL_ITEMS; j++)
      if (first + j < L) seg_out[first + j] = x[j];
  }
}

// ---------------------------------------------------------------- the call

#define HS_SLUG(id, slug, summary) slug,
static const char *const hs_slugs[] = {HS_VARIANT_LIST(HS_SLUG)};
#undef HS_SLUG

static int hs_round_up(int x, int m) { return (x + m - 1) / m * m; }

// The timed region: everything that produces out, for one variant. in[0] is
// the input, out[0] the output; for hillis_steele_global, out[1] is d_tmp: n
// ints the judge allocates and poisons before every call, and never reads.
static void hs_call(const runner_call *c) {
  if (c->n == 0) return;
  const int L = (int)hs_segment_length(c->n, c->param); // 1..1024, n a multiple of it: the judge checked
  const unsigned batch = (unsigned)(c->n / (uint64_t)L);
  const int *in = (const int *)c->in[0];
  int *out = (int *)c->out[0];
  switch ((hs_variant_id)c->variant) {
  case HS_INCLUSIVE:
    hs_inclusive<<<batch, hs_round_up(L, HS_WARP)>>>(in, out, L);
    RUNNER_CHECK_LAUNCH();
    break;
  case HS_EXCLUSIVE:
    hs_exclusive<<<batch, hs_round_up(L, HS_WARP)>>>(in, out, L);
    RUNNER_CHECK_LAUNCH();
    break;
  case HS_GLOBAL:
    RUNNER_CHECK(hs_scan_global(in, out, (int *)c->out[1], (size_t)c->n, L));
    RUNNER_CHECK_LAUNCH(); // a launch error the student's code did not return
    break;
  default:
    warp_shfl_block_scan<<<batch, hs_round_up((L + HS_SHFL_ITEMS - 1) / HS_SHFL_ITEMS, HS_WARP)>>>(in, out, L);
    RUNNER_CHECK_LAUNCH();
    break;
  }
}

static const runner_assignment hs_runner = {
    .name = "02-hillis-steele",
    .slugs = hs_slugs,
    .n_slugs = (int)(sizeof hs_slugs / sizeof *hs_slugs),
    .workspace_bytes = NULL,
    .call = hs_call,
};

RUNNER_MAIN(hs_runner)

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
#include "hillis_steele.cu"

