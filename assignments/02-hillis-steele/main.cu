// main.cu: the course-owned harness of assignment 02 (Hillis-Steele block scan). Do not edit.
//
// The input is a batch of segments of L ints each (n = batch * L, 1 <= L <= 1024);
// every segment is scanned on its own. A case's param field is L; an ad-hoc
// `--n N` run uses L = min(N, 1024), and N must then be a multiple of L.
//
// Versions (the table below; `--list` prints it):
//   hillis_steele_inclusive  task 1: your shared-memory scan, two buffers, one barrier per step
//   hillis_steele_exclusive  task 2: the same, exclusive
//   hillis_steele_global     task 3: one kernel launch per step over two global buffers
//   warp_shfl_block_scan     course-owned, not a task: a memory-bound block scan, the bar
//                            that `make bench A=02` compares everything with
// For the first two, the harness kernel below does the global loads and stores
// (one block per segment, thread t <-> element t) and calls your __device__
// function; for the third, the harness calls your hs_scan_global and times all
// the launches it makes.
// Cost floor: n ints read, n ints written; a copy of the same 8n bytes is the ceiling.
//
//   build/<src>/02-hillis-steele/harness --list
//   build/<src>/02-hillis-steele/harness --variant hillis_steele_inclusive --case L1000 --check
//   build/<src>/02-hillis-steele/harness --bench
//
// The student's file is compiled into this translation unit (the build puts
// starter/ or solutions/ on the include path), so each kernel's PTX shows the
// student's code inlined: that is what `make ptx A=02` prints and the ptx
// checks count.
#include "harness.h"
#include "hillis_steele.h"

#include <stdio.h>

#include "hillis_steele.cu"

// ---------------------------------------------------------------- version table

enum variant { INCLUSIVE, EXCLUSIVE, GLOBAL, SHFL };

// In enum order: harness, tests and benchmarks iterate it.
static const hx_variant VARIANTS[] = {
    {"hillis_steele_inclusive", "task 1: shared memory, ping-pong buffers, one __syncthreads per step"},
    {"hillis_steele_exclusive", "task 2: the same scan, exclusive (input shifted by one)"},
    {"hillis_steele_global", "task 3: one kernel launch per step over two global buffers"},
    {"warp_shfl_block_scan", "course reference, not a task: 4 ints/thread, shuffles, int4 loads"},
};

// ---------------------------------------------------------------- kernels

// Tasks 1 and 2. One block per segment, blockDim.x = L rounded up to whole
// warps, thread t <-> element t of the segment. Every thread calls the
// student's function (the padding threads with the identity 0), so barriers
// inside it are reached by the whole block. The variant is a compile-time
// constant in each kernel, so each kernel's PTX holds exactly one version.
static __device__ __forceinline__ void scan_segment(int variant, const int *in, int *out, int L) {
  __shared__ int buf[2 * HS_MAX_L];
  const int t = threadIdx.x;
  const size_t i = (size_t)blockIdx.x * L + t;
  int v = t < L ? in[i] : 0;
  int s = variant == EXCLUSIVE ? hs_block_scan_exclusive(v, buf, L) : hs_block_scan_inclusive(v, buf, L);
  if (t < L) out[i] = s;
}

extern "C" __global__ void hs_inclusive(const int *in, int *out, int L) { scan_segment(INCLUSIVE, in, out, L); }
extern "C" __global__ void hs_exclusive(const int *in, int *out, int L) { scan_segment(EXCLUSIVE, in, out, L); }

// The bar: an inclusive block scan that runs at nearly the speed of a copy.
// Course-owned, the same in the student and reference builds; read it after
// task 3 and compare its row in `make bench A=02` with yours.
//
// Mapping: one block per segment, SHFL_ITEMS = 4 consecutive elements per
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
enum { SHFL_ITEMS = 4, MAX_WARPS = 32 };
#define FULL_MASK 0xffffffffu

static __device__ __forceinline__ int warp_inclusive_scan(int x, int lane) {
#pragma unroll
  for (int k = 1; k < 32; k *= 2) {
    int up = __shfl_up_sync(FULL_MASK, x, k); // lane - k's x; lanes below k get their own back
    if (lane >= k) x += up;
  }
  return x;
}

extern "C" __global__ void warp_shfl_block_scan(const int *in, int *out, int L) {
  __shared__ int warp_total[MAX_WARPS];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32, warps = blockDim.x / 32;
  const int first = t * SHFL_ITEMS; // this thread's first element in the segment
  const int *seg_in = in + (size_t)blockIdx.x * L;
  int *seg_out = out + (size_t)blockIdx.x * L;
  const bool vec = L % SHFL_ITEMS == 0; // the same for the whole block

  int x[SHFL_ITEMS];
  if (vec && first < L) {
    int4 q = *(const int4 *)(seg_in + first);
    x[0] = q.x, x[1] = q.y, x[2] = q.z, x[3] = q.w;
  } else {
#pragma unroll
    for (int j = 0; j < SHFL_ITEMS; j++) x[j] = first + j < L ? seg_in[first + j] : 0;
  }
#pragma unroll
  for (int j = 1; j < SHFL_ITEMS; j++) x[j] += x[j - 1]; // the thread's own inclusive scan
  const int total = x[SHFL_ITEMS - 1];
  const int upto_thread = warp_inclusive_scan(total, lane); // this warp's threads 0..lane
  // The exclusive prefix is the inclusive one shifted up by one lane, not
  // upto_thread - total: a shift needs no inverse, so it holds for any
  // associative operator (handout 02, task 2). Every lane takes part.
  int before_thread = __shfl_up_sync(FULL_MASK, upto_thread, 1); // this warp's threads 0..lane-1
  if (lane == 0) before_thread = 0;

  if (lane == 31) warp_total[warp] = upto_thread;
  // Orders the warp totals' stores before the loads below, in every warp.
  // warp_total is written once per launch, so no barrier is needed after the loads.
  __syncthreads();
  int w = warp_inclusive_scan(lane < warps ? warp_total[lane] : 0, lane); // warps 0..lane
  int before_warp = __shfl_sync(FULL_MASK, w, warp > 0 ? warp - 1 : 0);  // warps 0..warp-1
  if (warp == 0) before_warp = 0;
  const int before = before_warp + before_thread; // every element before this thread's first
#pragma unroll
  for (int j = 0; j < SHFL_ITEMS; j++) x[j] += before;

  if (vec && first < L) {
    *(int4 *)(seg_out + first) = make_int4(x[0], x[1], x[2], x[3]);
  } else {
#pragma unroll
    for (int j = 0; j < SHFL_ITEMS; j++)
      if (first + j < L) seg_out[first + j] = x[j];
  }
}

// ---------------------------------------------------------------- cases

#define MAX_N (1ULL << 28)

// name, n = batch * L, seed, reps, param = L. Each correctness case has about
// 2^21 elements: thousands of segments, so that several blocks share each SM.
// That is when the warps of a block drift apart and a race between them shows
// up in the output; with one block per SM the starter's race often goes unseen.
static const hx_case CASES[] = {
    {"L1", 1 << 21, 21, 5, 1},
    {"L2", 2 << 20, 22, 5, 2},
    {"L31", 31 << 16, 23, 5, 31},
    {"L32", 32 << 16, 24, 5, 32},
    {"L33", 33 << 16, 25, 5, 33},
    {"L100", 100 * 20000, 26, 5, 100},
    {"L512", 512 << 12, 27, 5, 512},
    {"L1000", 1000 << 11, 28, 5, 1000},
    {"L1023", 1023 << 11, 29, 5, 1023},
    {"L1024", 1024 << 11, 30, 5, 1024},
    // Small enough for compute-sanitizer (racecheck, synccheck, memcheck); neither
    // is a multiple of 256, so a grid of 256-thread blocks has a partial last block.
    {"L1000x4", 1000 * 4, 31, 1, 1000},
    {"L33x16", 33 * 16, 33, 1, 33},
    // The performance case: 2^24 ints in 16384 segments of 1024.
    {"n2^24-L1024", 1 << 24, 32, 50, 1024},
};

// ---------------------------------------------------------------- setup, run, teardown

enum { WARP = 32 };

typedef struct state {
  int *d_in, *d_out, *d_tmp; // d_tmp: the second global buffer of hillis_steele_global
  int32_t *ref;
  size_t n;
  int L, variant;
} state;

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

static void *setup(const hx_spec *spec, hx_io *io) {
  uint64_t L = spec->param;
  if (L == 0) L = spec->n == 0 ? HS_MAX_L : (spec->n < HS_MAX_L ? spec->n : HS_MAX_L); // ad-hoc --n
  if (L < 1 || L > HS_MAX_L) {
    fprintf(stderr, "02-hillis-steele: case %s: segment length %llu is not in [1, %d]\n", spec->case_name,
            (unsigned long long)L, HS_MAX_L);
    return NULL;
  }
  if (spec->n % L != 0) {
    fprintf(stderr, "02-hillis-steele: n = %llu is not a multiple of the segment length %llu\n",
            (unsigned long long)spec->n, (unsigned long long)L);
    return NULL;
  }
  state *s = (state *)hx_malloc(sizeof *s);
  s->n = spec->n;
  s->L = (int)L;
  s->variant = spec->variant;
  int32_t *in = hx_random_ints(spec->seed, s->n, -1000, 1000);
  s->d_in = (int *)hx_dev_malloc(s->n * sizeof(int));
  s->d_out = (int *)hx_dev_malloc(s->n * sizeof(int));
  s->d_tmp = spec->variant == GLOBAL ? (int *)hx_dev_malloc(s->n * sizeof(int)) : NULL;
  CUDA_CHECK(cudaMemcpy(s->d_in, in, s->n * sizeof(int), cudaMemcpyHostToDevice));
  s->ref = NULL;
  if (spec->check) {
    s->ref = (int32_t *)hx_malloc(s->n * sizeof(int32_t));
    scan_cpu_i32(in, s->ref, s->n, s->L, spec->variant == EXCLUSIVE ? SCAN_EXCLUSIVE : SCAN_INCLUSIVE);
  }
  free(in);
  io->out[0].dev = s->d_out;
  io->out[0].ref = s->ref;
  io->out[0].count = s->n;
  io->n_out = 1;
  return s;
}

// The timed region: everything that produces d_out, for one variant.
static void run(void *p, int variant) {
  state *s = (state *)p;
  if (s->n == 0) return;
  const unsigned batch = (unsigned)(s->n / s->L);
  switch ((enum variant)variant) {
  case INCLUSIVE:
    hs_inclusive<<<batch, round_up(s->L, WARP)>>>(s->d_in, s->d_out, s->L);
    CUDA_CHECK_LAUNCH();
    break;
  case EXCLUSIVE:
    hs_exclusive<<<batch, round_up(s->L, WARP)>>>(s->d_in, s->d_out, s->L);
    CUDA_CHECK_LAUNCH();
    break;
  case GLOBAL:
    CUDA_CHECK(hs_scan_global(s->d_in, s->d_out, s->d_tmp, s->n, s->L));
    CUDA_CHECK_LAUNCH(); // a launch error the student's code did not return
    break;
  case SHFL:
    warp_shfl_block_scan<<<batch, round_up((s->L + SHFL_ITEMS - 1) / SHFL_ITEMS, WARP)>>>(s->d_in, s->d_out, s->L);
    CUDA_CHECK_LAUNCH();
    break;
  }
}

static void teardown(void *p) {
  state *s = (state *)p;
  CUDA_CHECK(cudaFree(s->d_in));
  CUDA_CHECK(cudaFree(s->d_out));
  if (s->d_tmp) CUDA_CHECK(cudaFree(s->d_tmp));
  free(s->ref);
  free(s);
}

// Napkin math: every element is read once and written once. The global variant
// moves about ceil(log2 L) times that; --bench shows it as its x_copy.
static double bytes_moved(uint64_t n) { return 8.0 * (double)n; }

int main(int argc, char **argv) {
  static const hx_assignment a = {
      "02-hillis-steele", VARIANTS, sizeof VARIANTS / sizeof *VARIANTS, CASES, sizeof CASES / sizeof *CASES, MAX_N,
      "n2^24-L1024", bytes_moved, "n ints read + n ints written", setup, run, teardown,
  };
  return hx_main(argc, argv, &a);
}
