// main.cu: the course-owned harness of assignment 03 (Blelloch scan). Do not edit.
//
// The input is cut into segments of L elements (the case's param; the last one
// may be shorter) and out is the exclusive scan of each segment on its own.
// One block scans one segment, in shared memory, as a tree of tree_size(L)
// leaves with the work-efficient up-sweep / down-sweep of Blelloch (1990):
//
//   load     the first tree/2 threads move two elements each into shared memory
//            (thread_element says which); leaves past the segment's end get 0
//   up-sweep strides 1, 2, 4, ..., tree/2: tree/(2s) threads add pairs (blelloch.h)
//   clear    the root, which holds the segment's total, becomes 0
//   down     strides tree/2, ..., 2, 1: the same pairs, in reverse, push prefixes down
//   store    the same threads move the results back to global memory
//
// Cost per segment: 2(tree - 1) additions in 2 log2(tree) steps, one barrier
// each; L ints read and L ints written. Every shared-memory index comes from
// the per-thread steps of blelloch.h, which the CPU model (model.cu) runs too.
//
//   build/<src>/03-blelloch/harness --list
//   build/<src>/03-blelloch/harness --variant blelloch_padded --case n2^24 --check
//   build/<src>/03-blelloch/harness --bench
//
// The student's file is compiled into this translation unit (the build puts
// starter/ or solutions/ on the include path).
#include "blelloch.h"
#include "harness.h"

#include "blelloch.cu"

// One block scans one segment. `layout` is a compile-time constant in each
// kernel, so each kernel holds exactly one index function.
static __device__ __forceinline__ void scan_segments(int layout, const int *in, int *out, size_t n, int seg_len,
                                                     int tree) {
  __shared__ unsigned temp[SMEM_WORDS];
  int t = threadIdx.x;
  size_t base = (size_t)blockIdx.x * (size_t)seg_len;
  int len = n - base < (size_t)seg_len ? (int)(n - base) : seg_len; // the last segment may be short
  load_element(layout, temp, in + base, len, tree, t, 0);
  load_element(layout, temp, in + base, len, tree, t, 1);
  for (int stride = 1; stride < tree; stride *= 2) {
    __syncthreads(); // the level below (or the load) is written before this step reads it
    if (t < sweep_threads(tree, stride)) up_sweep_step(layout, temp, t, stride);
  }
  __syncthreads(); // the root's last sum is written before it is cleared
  if (t == 0) clear_root(layout, temp, tree);
  for (int stride = tree / 2; stride >= 1; stride /= 2) {
    __syncthreads(); // the level above is written before this step reads it
    if (t < sweep_threads(tree, stride)) down_sweep_step(layout, temp, t, stride);
  }
  __syncthreads(); // the last step is written before the store reads it
  store_element(layout, temp, out + base, len, tree, t, 0);
  store_element(layout, temp, out + base, len, tree, t, 1);
}

// Two blocks of 1024 threads per SM (2048 threads, the most an SM holds from
// sm_80 on) keep one block's loads in flight while the other sweeps.
#define SCAN_BOUNDS __launch_bounds__(THREADS, 2)

extern "C" __global__ void SCAN_BOUNDS blelloch_padded(const int *in, int *out, size_t n, int seg_len, int tree) {
  scan_segments(LAYOUT_STUDENT, in, out, n, seg_len, tree);
}
extern "C" __global__ void SCAN_BOUNDS blelloch_unpadded(const int *in, int *out, size_t n, int seg_len, int tree) {
  scan_segments(LAYOUT_NONE, in, out, n, seg_len, tree);
}
extern "C" __global__ void SCAN_BOUNDS blelloch_gems16(const int *in, int *out, size_t n, int seg_len, int tree) {
  scan_segments(LAYOUT_GEMS16, in, out, n, seg_len, tree);
}

typedef void (*scan_kernel)(const int *, int *, size_t, int, int);
static const scan_kernel KERNELS[LAYOUT_COUNT] = {blelloch_padded, blelloch_unpadded, blelloch_gems16};

// The version table, in layout order (blelloch.h names them for the model too).
static const hx_variant VARIANTS[LAYOUT_COUNT] = {
    {LAYOUTS[LAYOUT_STUDENT].slug, LAYOUTS[LAYOUT_STUDENT].summary},
    {LAYOUTS[LAYOUT_NONE].slug, LAYOUTS[LAYOUT_NONE].summary},
    {LAYOUTS[LAYOUT_GEMS16].slug, LAYOUTS[LAYOUT_GEMS16].summary},
};

#define MAX_N (1ULL << 28)

// param = segment length L. Sizes that are not multiples of L leave a short
// last segment. An ad-hoc --n run has param 0 and uses L = TILE.
static const hx_case CASES[] = {
    {"L1", 1000, 31, 5, 1},
    {"L2", 2001, 32, 5, 2},
    {"L3", 1501, 33, 5, 3},
    {"L33", 33 * 1000 + 17, 34, 5, 33},
    {"L1000", 1000 * 100 + 999, 35, 5, 1000},
    {"L2047", 2047 * 64 + 1, 36, 5, 2047},
    {"L2048", (1 << 20) + 5, 37, 5, 2048},
    {"small", 5000, 38, 1, 2048},       // racecheck: three blocks, the last one short
    {"small-L33", 33 * 3 + 5, 39, 1, 33}, // racecheck: trees smaller than a tile
    {"n2^24", 1 << 24, 40, 50, 2048},   // the timed case
};

typedef struct state {
  int *d_in, *d_out;
  int32_t *ref;
  size_t n;
  int seg_len, tree;
} state;

// The kernel trusts tree_size and padded_index to keep it inside its shared
// array; check them on the host before any launch (bad ones exit 2 with why).
static int layout_usable(int variant, int seg_len, int *tree) {
  int t = tree_size(seg_len);
  if (t < 2 || t > TILE || (t & (t - 1)) || t < seg_len) {
    fprintf(stderr, "03-blelloch: tree_size(%d) = %d: want a power of two in [max(2, %d), %d]\n", seg_len, t, seg_len,
            TILE);
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

static void *setup(const hx_spec *spec, hx_io *io) {
  if (spec->param > TILE) {
    fprintf(stderr, "03-blelloch: segment length %llu is above %d\n", (unsigned long long)spec->param, (int)TILE);
    return NULL;
  }
  int seg_len = spec->param ? (int)spec->param : TILE;
  int tree;
  if (!layout_usable(spec->variant, seg_len, &tree)) return NULL;
  state *s = (state *)hx_malloc(sizeof *s);
  s->n = spec->n;
  s->seg_len = seg_len;
  s->tree = tree;
  int32_t *in = hx_random_ints(spec->seed, s->n, -1000000, 1000000);
  s->d_in = (int *)hx_dev_malloc(s->n * sizeof(int));
  s->d_out = (int *)hx_dev_malloc(s->n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(s->d_in, in, s->n * sizeof(int), cudaMemcpyHostToDevice));
  s->ref = NULL;
  if (spec->check) {
    s->ref = (int32_t *)hx_malloc(s->n * sizeof(int32_t));
    scan_cpu_i32(in, s->ref, s->n, (size_t)seg_len, SCAN_EXCLUSIVE);
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
  size_t blocks = (s->n + (size_t)s->seg_len - 1) / (size_t)s->seg_len;
  KERNELS[variant]<<<(unsigned)blocks, block_threads(s->tree)>>>(s->d_in, s->d_out, s->n, s->seg_len, s->tree);
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
      "03-blelloch", VARIANTS, LAYOUT_COUNT, CASES, sizeof CASES / sizeof *CASES, MAX_N,
      "n2^24", bytes_moved, "n ints read + n ints written", setup, run, teardown,
  };
  return hx_main(argc, argv, &a);
}
