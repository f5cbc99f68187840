// main.cu: the course-owned harness of assignment 03 (Blelloch scan). Do not edit.
//
// The input is cut into segments of L elements (the case's param; the last one
// may be shorter) and out is the exclusive scan of each segment on its own.
// A block scans one segment at a time, in shared memory, as a tree of
// tree_size(L) leaves:
//
//   load     the first tree/2 threads move two elements each into shared memory
//            (your thread_element says which, your padded_index where); leaves
//            past the segment's end get 0
//   scan     your blelloch_scan_tree: up-sweep, clear the root, down-sweep
//   store    the same threads move the results back to global memory
//
// Cost per segment: L ints read and L ints written, and what your scan does
// (the work-efficient scan: 2(tree - 1) additions in 2 log2(tree) steps).
//
// Each block stays resident and walks over segments, reading the next one's
// two values per thread into registers while your scan works on the current
// one, so the global loads' latency hides behind the sweeps.
//
//   build/<src>/03-blelloch/harness --list
//   build/<src>/03-blelloch/harness --variant blelloch_padded --case n2^24 --check
//   build/<src>/03-blelloch/harness --bench
//
// The student's file is compiled into this translation unit (the build puts
// starter/ or solutions/ on the include path).
#include <stdio.h>
#include <stdlib.h>

#include "blelloch.h"
#include "harness.h"

#include "blelloch.cu"

static __device__ __forceinline__ int hx_segment_length(size_t n, size_t seg, int seg_len) {
  size_t base = seg * (size_t)seg_len;
  return n - base < (size_t)seg_len ? (int)(n - base) : seg_len; // the last segment may be short
}

// Block b scans segments b, b + gridDim.x, b + 2 gridDim.x, ... `layout` is a
// compile-time constant in each kernel, so each kernel holds exactly one index
// function.
static __device__ __forceinline__ void hx_scan_segments(int layout, const int *in, int *out, size_t n, int seg_len,
                                                     int tree) {
  // temp starts one word into its array, so no two tree words form an 8-byte
  // aligned pair. The compiler then keeps every access 4 bytes wide, as the model
  // counts them; otherwise it merges the stride-1 pair (2t, 2t + 1) of the
  // unpadded layout into one 8-byte access. (Shifting every word by one shifts
  // every bank by one: no conflict appears or disappears.)
  __shared__ unsigned storage[1 + SMEM_WORDS];
  unsigned *temp = storage + 1;
  int t = threadIdx.x;
  int e0 = moved_element(t, 0, tree), e1 = moved_element(t, 1, tree); // the same in every segment
  size_t segments = (n + (size_t)seg_len - 1) / (size_t)seg_len;
  size_t seg = blockIdx.x;
  unsigned v0 = 0, v1 = 0; // this thread's two values of segment `seg`, read ahead
  if (seg < segments) {
    const int *first = in + seg * (size_t)seg_len;
    v0 = read_element(first, hx_segment_length(n, seg, seg_len), e0);
    v1 = read_element(first, hx_segment_length(n, seg, seg_len), e1);
  }
  for (; seg < segments; seg += gridDim.x) {
    int len = hx_segment_length(n, seg, seg_len);
    __syncthreads(); // the previous segment's store has read temp before it is overwritten
    put_element(layout, temp, e0, v0);
    put_element(layout, temp, e1, v1);
    size_t next = seg + gridDim.x;
    if (next < segments) { // in flight during the sweeps; used in the next iteration
      const int *ahead = in + next * (size_t)seg_len;
      v0 = read_element(ahead, hx_segment_length(n, next, seg_len), e0);
      v1 = read_element(ahead, hx_segment_length(n, next, seg_len), e1);
    }
    if (tree == TILE) blelloch_scan_tree(layout, temp, TILE); // a constant: your loops may unroll
    else blelloch_scan_tree(layout, temp, tree);
    int *dst = out + seg * (size_t)seg_len;
    store_element(layout, temp, dst, len, e0);
    store_element(layout, temp, dst, len, e1);
  }
}

// Two blocks of 1024 threads per SM where an SM holds 2048 threads (sm_80,
// sm_90): that asks the compiler for at most 32 registers a thread. An SM of
// sm_75 holds 1024 threads and one of sm_86/sm_89 1536, so one block there.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
#define HX_SCAN_BOUNDS __launch_bounds__(THREADS, 2)
#else
#define HX_SCAN_BOUNDS __launch_bounds__(THREADS)
#endif

extern "C" __global__ void HX_SCAN_BOUNDS blelloch_padded(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_STUDENT, in, out, n, seg_len, tree);
}
extern "C" __global__ void HX_SCAN_BOUNDS blelloch_unpadded(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_NONE, in, out, n, seg_len, tree);
}
extern "C" __global__ void HX_SCAN_BOUNDS blelloch_gems16(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_GEMS16, in, out, n, seg_len, tree);
}

// ---------------------------------------------------------------- your tree over thread totals (question 7)
//
// blelloch_thread_totals: how the same tree gets near copy speed. Each of 256
// threads owns 8 consecutive elements of the segment, scans them in registers
// (7 additions, no barrier), and your blelloch_scan_tree runs over the 256
// thread totals only: 8 times fewer leaves, 16 steps instead of 22. Each thread
// then adds its total's exclusive prefix to its 8 values. Shared memory holds
// 256 words: element i in word i (LAYOUT_NONE; at this size its conflicts cost
// little next to the memory traffic).
// Global memory: two 16-byte loads and stores per thread when the segment
// starts on a 16-byte boundary (L a multiple of 4), else scalar accesses.
// Cost per segment: 2 * 255 tree additions + 16 per thread; L ints read and written.
enum { HX_TT_ITEMS = 8, HX_TT_THREADS = TILE / HX_TT_ITEMS };

extern "C" __global__ void __launch_bounds__(HX_TT_THREADS) blelloch_thread_totals(const int *in, int *out, size_t n,
                                                                                int seg_len, int tree) {
  (void)tree; // the thread-totals tree always has HX_TT_THREADS leaves
  __shared__ unsigned temp[HX_TT_THREADS];
  const int t = threadIdx.x, first = t * HX_TT_ITEMS;
  const bool vec = seg_len % 4 == 0; // every segment then starts 16-byte aligned (cudaMalloc aligns the array)
  size_t segments = (n + (size_t)seg_len - 1) / (size_t)seg_len;
  for (size_t seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    int len = hx_segment_length(n, seg, seg_len);
    const int *src = in + seg * (size_t)seg_len;
    unsigned x[HX_TT_ITEMS];
    if (vec && first + HX_TT_ITEMS <= len) {
      int4 a = *(const int4 *)(src + first), b = *(const int4 *)(src + first + 4);
      x[0] = a.x, x[1] = a.y, x[2] = a.z, x[3] = a.w, x[4] = b.x, x[5] = b.y, x[6] = b.z, x[7] = b.w;
    } else {
#pragma unroll
      for (int j = 0; j < HX_TT_ITEMS; j++) x[j] = read_element(src, len, first + j);
    }
    unsigned total = 0; // x becomes the exclusive scan of the thread's 8 values
#pragma unroll
    for (int j = 0; j < HX_TT_ITEMS; j++) {
      unsigned v = x[j];
      x[j] = total;
      total += v;
    }
    __syncthreads(); // the previous segment's last reads of temp are done
    temp[t] = total;
    blelloch_scan_tree(LAYOUT_NONE, temp, HX_TT_THREADS); // temp[t] = the totals of threads 0..t-1 (ends with a barrier)
    unsigned before = temp[t];
    int *dst = out + seg * (size_t)seg_len;
    if (vec && first + HX_TT_ITEMS <= len) {
      *(int4 *)(dst + first) = make_int4((int)(x[0] + before), (int)(x[1] + before), (int)(x[2] + before),
                                         (int)(x[3] + before));
      *(int4 *)(dst + first + 4) = make_int4((int)(x[4] + before), (int)(x[5] + before), (int)(x[6] + before),
                                             (int)(x[7] + before));
    } else {
#pragma unroll
      for (int j = 0; j < HX_TT_ITEMS; j++)
        if (first + j < len) dst[first + j] = (int)(x[j] + before);
    }
  }
}

// ---------------------------------------------------------------- version table

typedef void (*hx_kernel)(const int *, int *, size_t, int, int);

// The version table: the three layouts of blelloch.h (in layout order, so a
// variant index below LAYOUT_COUNT is its layout), then the course reference.
enum { HX_VARIANT_THREAD_TOTALS = LAYOUT_COUNT, HX_N_VARIANTS };
static const hx_kernel HX_KERNELS[HX_N_VARIANTS] = {blelloch_padded, blelloch_unpadded, blelloch_gems16,
                                                blelloch_thread_totals};
static const hx_variant HX_VARIANTS[HX_N_VARIANTS] = {
    {LAYOUTS[LAYOUT_STUDENT].slug, LAYOUTS[LAYOUT_STUDENT].summary},
    {LAYOUTS[LAYOUT_NONE].slug, LAYOUTS[LAYOUT_NONE].summary},
    {LAYOUTS[LAYOUT_GEMS16].slug, LAYOUTS[LAYOUT_GEMS16].summary},
    {"blelloch_thread_totals", "course reference, not a task: 8 ints/thread in registers, the tree over 256 totals"},
};

// param = segment length L. Sizes that are not multiples of L leave a short
// last segment. An ad-hoc --n run has param 0 and uses L = TILE.
static const hx_case HX_CASES[] = {
    {"L1", 1000, 31, 5, 1},
    {"L2", 2001, 32, 5, 2},
    {"L3", 1501, 33, 5, 3},
    {"L33", 33 * 1000 + 17, 34, 5, 33},
    {"L1000", 1000 * 100 + 999, 35, 5, 1000},
    {"L2047", 2047 * 64 + 1, 36, 5, 2047},
    {"L2048", (1 << 20) + 5, 37, 5, 2048},
    {"small", 5000, 38, 1, 2048},       // racecheck: three blocks, the last one short
    {"small-L33", 33 * 3 + 5, 39, 1, 33}, // racecheck: trees smaller than a tile
    {"tiles2", 2 * 2048, 41, 1, 2048},    // ncu: two full tiles, whose bank conflicts the model predicts exactly
    {"n2^24", 1 << 24, 40, 50, 2048},   // the timed case
};

typedef struct hx_state {
  const int *in;
  int *out;
  size_t n;
  int seg_len, tree;
  unsigned blocks; // one per segment, at most as many as the GPU holds at once
} hx_state;

// The kernel trusts tree_size and padded_index to keep it inside its shared
// array; check them on the host before any launch (bad ones exit 2 with why).
static int hx_layout_usable(int variant, int seg_len, int *tree) {
  int t = tree_size(seg_len);
  if (t < 2 || t > TILE || (t & (t - 1)) || t < seg_len) {
    fprintf(stderr, "03-blelloch: tree_size(%d) = %d: want a power of two in [max(2, %d), %d]\n", seg_len, t, seg_len,
            (int)TILE);
    return 0;
  }
  for (int i = 0; i < t; i++) {
    int w = shared_word(variant, i);
    if (w < 0 || w >= SMEM_WORDS) {
      fprintf(stderr, "03-blelloch: %s: element %d goes to shared word %d, outside the %d words allocated\n",
              LAYOUTS[variant].slug, i, w, (int)SMEM_WORDS);
      return 0;
    }
  }
  *tree = t;
  return 1;
}

static int hx_threads_of(int variant, int tree) {
  return variant == HX_VARIANT_THREAD_TOTALS ? HX_TT_THREADS : block_threads(tree);
}

static void *hx_setup(const hx_spec *spec, hx_io *io) {
  if (spec->param > TILE) {
    fprintf(stderr, "03-blelloch: segment length %llu is above %d\n", (unsigned long long)spec->param, (int)TILE);
    return NULL;
  }
  int seg_len = spec->param ? (int)spec->param : TILE;
  int tree = HX_TT_THREADS; // the thread-totals variant uses neither your tree_size nor your padded_index
  if (spec->variant != HX_VARIANT_THREAD_TOTALS && !hx_layout_usable(spec->variant, seg_len, &tree)) return NULL;
  hx_state *s = (hx_state *)hx_malloc(sizeof *s);
  s->n = spec->n;
  s->seg_len = seg_len;
  s->tree = tree;
  int32_t *in = hx_random_ints(spec->seed, s->n, -1000000, 1000000);
  s->in = (const int *)hx_dev_upload(in, s->n * sizeof(int));
  s->out = (int *)hx_dev_malloc(s->n * sizeof(int));
  if (spec->check) hx_scan_cpu(in, in, s->n, (size_t)seg_len, 1); // exclusive, in place
  hx_add_output(io, "out", HX_INT32, s->out, spec->check ? in : NULL, s->n);
  // As many blocks as fit on the GPU at once (each walks over segments), or
  // one per segment when there are fewer.
  int per_sm = 0, sms = 0;
  HX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, HX_KERNELS[spec->variant],
                                                         hx_threads_of(spec->variant, tree), 0));
  HX_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  size_t segments = (s->n + (size_t)seg_len - 1) / (size_t)seg_len, resident = (size_t)per_sm * (size_t)sms;
  s->blocks = (unsigned)(segments < resident ? segments : resident);
  return s;
}

static void hx_run(void *p, int variant) {
  hx_state *s = (hx_state *)p;
  if (s->n == 0) return;
  HX_KERNELS[variant]<<<s->blocks, hx_threads_of(variant, s->tree)>>>(s->in, s->out, s->n, s->seg_len, s->tree);
  HX_CHECK_LAUNCH();
}

// Napkin math: every element is read once and written once (the driver's default, 8n bytes).
static const hx_assignment HX_03 = {
    .name = "03-blelloch",
    .variants = HX_VARIANTS,
    .n_variants = HX_N_VARIANTS,
    .cases = HX_CASES,
    .n_cases = sizeof HX_CASES / sizeof *HX_CASES,
    .max_n = 1ULL << 28,
    .bench_case = "n2^24",
    .setup = hx_setup,
    .run = hx_run,
};

HX_MAIN(HX_03)
