// runner.cu: the course-owned runner of assignment 03 (Blelloch scan). Do not edit.
//
// The untrusted side of grading (grader/runner/runner.h): this file, with your
// blelloch.cu included at its end, makes build/<src>/03-blelloch/runner; your
// file is also compiled alone into student.o, which the build inspects. It launches the kernels on the judge's
// buffers; the judge made the input, and the judge alone compares what the
// kernels wrote. Every call gets a new input.
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
//   build/<src>/03-blelloch/runner --list      (runs the judge on this runner)
//   build/<src>/03-blelloch/runner --variant blelloch_padded --case n2^24
//   build/<src>/03-blelloch/runner --bench
//
// Your file is included at the end of this one, so the kernels here inline your
// functions; `make ptx A=03` prints this file's PTX.
#include <stdio.h>
#include <stdlib.h>

#include "blelloch.h"
#include "runner.h"
#include "variants.h"

static_assert(BL_TILE == TILE, "variants.h and blelloch.h agree on the tile");
static_assert((int)BL_PADDED == (int)LAYOUT_STUDENT && (int)BL_UNPADDED == (int)LAYOUT_NONE &&
                  (int)BL_GEMS16 == (int)LAYOUT_GEMS16 && (int)BL_THREAD_TOTALS == (int)LAYOUT_COUNT,
              "the variants are the layouts in layout order, then the thread-totals reference");

static __device__ __forceinline__ int bl_length_of(size_t n, size_t seg, int seg_len) {
  size_t base = seg * (size_t)seg_len;
  return n - base < (size_t)seg_len ? (int)(n - base) : seg_len; // the last segment may be short
}

// Block b scans segments b, b + gridDim.x, b + 2 gridDim.x, ... `layout` is a
// compile-time constant in each kernel, so each kernel holds exactly one index
// function for its loads and stores (your scan gets it as an argument).
static __device__ __forceinline__ void bl_scan_segments(int layout, const int *in, int *out, size_t n, int seg_len,
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
    v0 = read_element(first, bl_length_of(n, seg, seg_len), e0);
    v1 = read_element(first, bl_length_of(n, seg, seg_len), e1);
  }
  for (; seg < segments; seg += gridDim.x) {
    int len = bl_length_of(n, seg, seg_len);
    __syncthreads(); // the previous segment's store has read temp before it is overwritten
    put_element(layout, temp, e0, v0);
    put_element(layout, temp, e1, v1);
    size_t next = seg + gridDim.x;
    if (next < segments) { // in flight during the sweeps; used in the next iteration
      const int *ahead = in + next * (size_t)seg_len;
      v0 = read_element(ahead, bl_length_of(n, next, seg_len), e0);
      v1 = read_element(ahead, bl_length_of(n, next, seg_len), e1);
    }
    // A constant where your function is inlined into this kernel: your loops
    // may unroll for the full tile.
    if (tree == TILE) blelloch_scan_tree(layout, temp, TILE);
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
#define BL_SCAN_BOUNDS __launch_bounds__(THREADS, 2)
#else
#define BL_SCAN_BOUNDS __launch_bounds__(THREADS)
#endif

extern "C" __global__ void BL_SCAN_BOUNDS blelloch_padded(const int *in, int *out, size_t n, int seg_len, int tree) {
  bl_scan_segments(LAYOUT_STUDENT, in, out, n, seg_len, tree);
}
extern "C" __global__ void BL_SCAN_BOUNDS blelloch_unpadded(const int *in, int *out, size_t n, int seg_len, int tree) {
  bl_scan_segments(LAYOUT_NONE, in, out, n, seg_len, tree);
}
extern "C" __global__ void BL_SCAN_BOUNDS blelloch_gems16(const int *in, int *out, size_t n, int seg_len, int tree) {
  bl_scan_segments(LAYOUT_GEMS16, in, out, n, seg_len, tree);
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
enum { BL_TT_ITEMS = 8, BL_TT_THREADS = TILE / BL_TT_ITEMS };

extern "C" __global__ void __launch_bounds__(BL_TT_THREADS) blelloch_thread_totals(const int *in, int *out, size_t n,
                                                                                int seg_len, int tree) {
  (void)tree; // the thread-totals tree always has BL_TT_THREADS leaves
  __shared__ unsigned temp[BL_TT_THREADS];
  const int t = threadIdx.x, first = t * BL_TT_ITEMS;
  const bool vec = seg_len % 4 == 0; // every segment then starts 16-byte aligned (cudaMalloc aligns the array)
  size_t segments = (n + (size_t)seg_len - 1) / (size_t)seg_len;
  for (size_t seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    int len = bl_length_of(n, seg, seg_len);
    const int *src = in + seg * (size_t)seg_len;
    unsigned x[BL_TT_ITEMS];
    if (vec && first + BL_TT_ITEMS <= len) {
      int4 a = *(const int4 *)(src + first), b = *(const int4 *)(src + first + 4);
      x[0] = a.x, x[1] = a.y, x[2] = a.z, x[3] = a.w, x[4] = b.x, x[5] = b.y, x[6] = b.z, x[7] = b.w;
    } else {
#pragma unroll
      for (int j = 0; j < BL_TT_ITEMS; j++) x[j] = read_element(src, len, first + j);
    }
    unsigned total = 0; // x becomes the exclusive scan of the thread's 8 values
#pragma unroll
    for (int j = 0; j < BL_TT_ITEMS; j++) {
      unsigned v = x[j];
      x[j] = total;
      total += v;
    }
    __syncthreads(); // the previous segment's last reads of temp are done
    temp[t] = total;
    blelloch_scan_tree(LAYOUT_NONE, temp, BL_TT_THREADS); // temp[t] = the totals of threads 0..t-1 (ends with a barrier)
    unsigned before = temp[t];
    int *dst = out + seg * (size_t)seg_len;
    if (vec && first + BL_TT_ITEMS <= len) {
      *(int4 *)(dst + first) = make_int4((int)(x[0] + before), (int)(x[1] + before), (int)(x[2] + before),
                                         (int)(x[3] + before));
      *(int4 *)(dst + first + 4) = make_int4((int)(x[4] + before), (int)(x[5] + before), (int)(x[6] + before),
                                             (int)(x[7] + before));
    } else {
#pragma unroll
      for (int j = 0; j < BL_TT_ITEMS; j++)
        if (first + j < len) dst[first + j] = (int)(x[j] + before);
    }
  }
}

// ---------------------------------------------------------------- the call

typedef void (*bl_kernel)(const int *, int *, size_t, int, int);

// In variants.h's order: the three layouts of blelloch.h (so a variant index
// below LAYOUT_COUNT is its layout), then the course reference.
static const bl_kernel BL_KERNELS[] = {blelloch_padded, blelloch_unpadded, blelloch_gems16, blelloch_thread_totals};
static_assert(sizeof BL_KERNELS / sizeof *BL_KERNELS == BL_N_VARIANTS, "one kernel per variant");

#define BL_SLUG(id, slug, summary) slug,
static const char *const bl_slugs[] = {BL_VARIANT_LIST(BL_SLUG)};
#undef BL_SLUG

// The kernel trusts tree_size and padded_index to keep it inside its shared
// array: they are checked on the host before the first launch with a segment
// length. A bad one ends the run (exit 3, the reason on the last line of
// stderr, which the grader quotes) before any kernel writes outside its array.
static void bl_layout_usable(int variant, int seg_len, int *tree) {
  int t = tree_size(seg_len);
  if (t < 2 || t > TILE || (t & (t - 1)) || t < seg_len) {
    fprintf(stderr, "03-blelloch runner: tree_size(%d) = %d: want a power of two in [max(2, %d), %d]; nothing was launched\n",
            seg_len, t, seg_len, (int)TILE);
    exit(3);
  }
  for (int i = 0; i < t; i++) {
    int w = shared_word(variant, i);
    if (w < 0 || w >= SMEM_WORDS) {
      fprintf(stderr,
              "03-blelloch runner: %s: element %d goes to shared word %d, outside the %d words allocated; nothing was launched\n",
              LAYOUTS[variant].slug, i, w, (int)SMEM_WORDS);
      exit(3);
    }
  }
  *tree = t;
}

// A variant's launch at one segment length: the tree, the threads, and how many
// blocks fit on the GPU at once. Worked out on the first call with that length
// (a warm-up call, unless --warmup 0) and kept.
typedef struct bl_plan {
  int tree, threads;
  size_t resident; // 0: not worked out yet
} bl_plan;

static bl_plan bl_plans[BL_N_VARIANTS][TILE + 1];

static const bl_plan *bl_plan_of(int variant, int seg_len) {
  bl_plan *p = &bl_plans[variant][seg_len];
  if (p->resident) return p;
  int tree = BL_TT_THREADS; // the thread-totals variant uses neither your tree_size nor your padded_index
  if (variant != BL_THREAD_TOTALS) bl_layout_usable(variant, seg_len, &tree);
  p->tree = tree;
  p->threads = variant == BL_THREAD_TOTALS ? BL_TT_THREADS : block_threads(tree);
  int per_sm = 0, sms = 0;
  RUNNER_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, BL_KERNELS[variant], p->threads, 0));
  RUNNER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  p->resident = (size_t)(per_sm > 0 ? per_sm : 1) * (size_t)(sms > 0 ? sms : 1);
  return p;
}

// The timed region: one launch. As many blocks as fit on the GPU at once (each
// walks over segments), or one per segment when there are fewer.
static void bl_call(const runner_call *c) {
  if (c->n == 0) return;
  const int seg_len = (int)bl_segment_length(c->param); // 1..TILE: the judge checked
  const bl_plan *p = bl_plan_of(c->variant, seg_len);
  size_t segments = (c->n + (size_t)seg_len - 1) / (size_t)seg_len;
  unsigned blocks = (unsigned)(segments < p->resident ? segments : p->resident);
  BL_KERNELS[c->variant]<<<blocks, p->threads>>>((const int *)c->in[0], (int *)c->out[0], (size_t)c->n, seg_len,
                                                 p->tree);
  RUNNER_CHECK_LAUNCH();
}

static const runner_assignment bl_runner = {
    .name = "03-blelloch",
    .slugs = bl_slugs,
    .n_slugs = (int)(sizeof bl_slugs / sizeof *bl_slugs),
    .workspace_bytes = NULL,
    .call = bl_call,
};

RUNNER_MAIN(bl_runner)

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
#include "blelloch.cu"

