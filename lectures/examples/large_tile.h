// large_tile.h: what lecture 05's examples share: one tile of a running
// maximum (a block's inclusive max-scan or max-reduction of LT_TILE unsigned
// ints), the CPU reference, the input, the check and the timer. The lecture
// teaches large scans on max, not on the sum of assignment 04: the structure
// is the same, the code is not the assignment's. Include after example.h.
#ifndef SCANLAB_LARGE_TILE_H
#define SCANLAB_LARGE_TILE_H

#include "example.h"

enum {
  LT_THREADS = 256,                // threads per block
  LT_ITEMS = 4,                    // consecutive elements per thread: one 16-byte load
  LT_TILE = LT_THREADS * LT_ITEMS, // elements per tile (1024)
  LT_WARPS = LT_THREADS / 32,
  LT_REPS = 21, // timed runs per variant (median)
};
#define LT_FULL 0xffffffffu // every lane of a warp

static inline __host__ __device__ size_t lt_tiles(size_t n) { return (n + LT_TILE - 1) / LT_TILE; }
// Where the next array of a workspace may start after `count` words: a
// multiple of 4 words, so that its 16-byte loads are aligned.
static inline size_t lt_next4(size_t count) { return (count + 3) / 4 * 4; }

// ---------------------------------------------------------------- device: one tile

// Thread t holds elements 4t..4t+3 of tile `tile`. Past n they read as 0, the
// identity of max on unsigned ints. A full group is one 16-byte load: cudaMalloc
// aligns to 256 bytes, and a tile starts at a multiple of 1024 elements.
static __device__ __forceinline__ uint4 lt_load(const unsigned *in, size_t n, size_t tile) {
  const size_t first = tile * LT_TILE + (size_t)threadIdx.x * LT_ITEMS;
  if (first + LT_ITEMS <= n) return *(const uint4 *)(in + first);
  uint4 v = make_uint4(0, 0, 0, 0);
  if (first < n) v.x = in[first];
  if (first + 1 < n) v.y = in[first + 1];
  if (first + 2 < n) v.z = in[first + 2];
  return v;
}

static __device__ __forceinline__ void lt_store(unsigned *out, size_t n, size_t tile, uint4 v) {
  const size_t first = tile * LT_TILE + (size_t)threadIdx.x * LT_ITEMS;
  if (first + LT_ITEMS <= n) {
    *(uint4 *)(out + first) = v;
    return;
  }
  if (first < n) out[first] = v.x;
  if (first + 1 < n) out[first + 1] = v.y;
  if (first + 2 < n) out[first + 2] = v.z;
}

static __device__ __forceinline__ uint4 lt_max4(uint4 v, unsigned c) {
  return make_uint4(max(v.x, c), max(v.y, c), max(v.z, c), max(v.w, c));
}

// The maximum over a warp, in every lane (5 shuffles; __reduce_max_sync would
// do it in one instruction, but only from sm_80).
static __device__ __forceinline__ unsigned lt_warp_max(unsigned x) {
  for (int d = 16; d >= 1; d /= 2) x = max(x, __shfl_xor_sync(LT_FULL, x, d));
  return x;
}

// The maximum over the block, in every thread. Two barriers: one after the
// warps' maxima are written, one before the next call may write them again.
static __device__ __forceinline__ unsigned lt_block_max(unsigned x) {
  __shared__ unsigned per_warp[LT_WARPS];
  x = lt_warp_max(x);
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = x;
  __syncthreads();
  unsigned all = per_warp[0];
  for (int w = 1; w < LT_WARPS; w++) all = max(all, per_warp[w]);
  __syncthreads();
  return all;
}

// The maximum of tile `tile`, in every thread. Reads the tile once.
static __device__ __forceinline__ unsigned lt_tile_max(const unsigned *in, size_t n, size_t tile) {
  const uint4 v = lt_load(in, n, tile);
  return lt_block_max(max(max(v.x, v.y), max(v.z, v.w)));
}

// Inclusive max-scan of the tile held in v (4 per thread, in thread order);
// returns the tile's maximum to every thread. Work 4 + 5 shuffles + at most 8
// shared reads per thread; the tile's bytes are read and written once.
static __device__ __forceinline__ unsigned lt_block_scan(uint4 *v) {
  __shared__ unsigned warp_top[LT_WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v->y = max(v->y, v->x);
  v->z = max(v->z, v->y);
  v->w = max(v->w, v->z);
  unsigned up_to_me = v->w; // becomes the warp's inclusive max-scan of the threads' maxima
  for (int d = 1; d < 32; d *= 2) {
    const unsigned left = __shfl_up_sync(LT_FULL, up_to_me, d);
    if (lane >= d) up_to_me = max(up_to_me, left);
  }
  unsigned before_me = __shfl_up_sync(LT_FULL, up_to_me, 1);
  if (lane == 0) before_me = 0;
  if (lane == 31) warp_top[warp] = up_to_me;
  __syncthreads(); // every warp's maximum is in warp_top
  unsigned tile_max = 0;
  for (int w = 0; w < LT_WARPS; w++) {
    if (w < warp) before_me = max(before_me, warp_top[w]);
    tile_max = max(tile_max, warp_top[w]);
  }
  __syncthreads(); // warp_top may be written by the next call
  *v = lt_max4(*v, before_me);
  return tile_max;
}

// ---------------------------------------------------------------- host

// The CPU reference (the one running maximum every example checks against).
static inline void lt_cpu_max_scan(const unsigned *in, unsigned *out, size_t n) {
  unsigned m = 0;
  for (size_t i = 0; i < n; i++) out[i] = m = in[i] > m ? in[i] : m;
}

// The input: element i is a hash of i below a bound that grows with i and
// that each tile scales by its own factor from 1 to 8. So the running maximum
// keeps growing, and a tile's maximum is often smaller than that of some tile
// two or more before it: a carry taken from the wrong tile shows.
static inline unsigned lt_hash(unsigned x) {
  x *= 2654435761u;
  x ^= x >> 15;
  x *= 2246822519u;
  return x ^ (x >> 13);
}

static inline void lt_fill(unsigned *h, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const unsigned factor = lt_hash((unsigned)(i / LT_TILE) ^ 0x9e3779b9u) % 8 + 1;
    h[i] = lt_hash((unsigned)i) % (factor * (unsigned)(i / 8 + 128));
  }
}

// How many elements of the device array d differ from want; the first one in *first_bad (-1: none).
static inline size_t lt_mismatches(const unsigned *d, const unsigned *want, size_t n, long long *first_bad) {
  unsigned *got = (unsigned *)malloc(n * sizeof *got + 1);
  if (!got) {
    fprintf(stderr, "%s:%d: out of host memory for %zu elements\n", __FILE__, __LINE__, n);
    exit(1);
  }
  EX_CHECK(cudaMemcpy(got, d, n * sizeof *got, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  *first_bad = -1;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ == 0) *first_bad = (long long)i;
  free(got);
  return bad;
}

// What every example starts from: n_max inputs on the host (h_in) and on the
// device (in), and a host array for the CPU reference's answers (want).
typedef struct lt_data {
  unsigned *h_in, *want, *in;
} lt_data;

static inline lt_data lt_data_make(size_t n_max) {
  lt_data d = {(unsigned *)malloc(n_max * sizeof(unsigned)), (unsigned *)malloc(n_max * sizeof(unsigned)), NULL};
  if (!d.h_in || !d.want) {
    fprintf(stderr, "%s:%d: out of host memory for %zu elements\n", __FILE__, __LINE__, n_max);
    exit(1);
  }
  lt_fill(d.h_in, n_max);
  d.in = (unsigned *)ex_dev_zeros(n_max * sizeof(unsigned));
  EX_CHECK(cudaMemcpy(d.in, d.h_in, n_max * sizeof(unsigned), cudaMemcpyHostToDevice));
  return d;
}

static inline void lt_data_free(lt_data *d) {
  EX_CHECK(cudaFree(d->in));
  free(d->h_in);
  free(d->want);
}

// One run of a variant on the default stream: it checks its own launches
// (cudaGetLastError) and does not synchronize.
typedef void (*lt_run_fn)(const unsigned *in, unsigned *out, size_t n, void *work);

static int lt_compare_floats(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

// The median time of LT_REPS runs, in microseconds, after one warm-up run
// whose errors are checked at a synchronization.
static inline float lt_time_us(lt_run_fn run, const unsigned *in, unsigned *out, size_t n, void *work) {
  float ms[LT_REPS];
  cudaEvent_t start, stop;
  EX_CHECK(cudaEventCreate(&start));
  EX_CHECK(cudaEventCreate(&stop));
  run(in, out, n, work);
  EX_CHECK_LAUNCH();
  for (int r = 0; r < LT_REPS; r++) {
    EX_CHECK(cudaEventRecord(start));
    run(in, out, n, work);
    EX_CHECK(cudaEventRecord(stop));
    EX_CHECK(cudaEventSynchronize(stop));
    EX_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
  }
  EX_CHECK(cudaEventDestroy(start));
  EX_CHECK(cudaEventDestroy(stop));
  qsort(ms, LT_REPS, sizeof *ms, lt_compare_floats);
  return ms[LT_REPS / 2] * 1000.0f;
}

// The same, after poisoning out (0xA5 bytes), so that an element no run
// writes shows up in the check that follows.
static inline float lt_time_poisoned_us(lt_run_fn run, const unsigned *in, unsigned *out, size_t n, void *work) {
  EX_CHECK(cudaMemset(out, 0xA5, n * sizeof *out));
  return lt_time_us(run, in, out, n, work);
}

// The ceiling every scan is measured against: a device-to-device copy of the same bytes.
static inline void lt_copy(const unsigned *in, unsigned *out, size_t n, void *work) {
  (void)work;
  EX_CHECK(cudaMemcpyAsync(out, in, n * sizeof *in, cudaMemcpyDeviceToDevice));
}

// ---------------------------------------------------------------- the sweep every example runs

// A variant's check: how many elements it got wrong (of out, or of a result
// in its workspace) against the CPU, the first one in *first_bad (-1: none).
typedef size_t (*lt_check_fn)(const lt_data *d, const unsigned *out, size_t n, void *work, long long *first_bad);

typedef struct lt_variant {
  const char *slug;
  lt_run_fn run;
  lt_check_fn check;
} lt_variant;

// The copy's output is its input, not a scan: nothing to compare.
static inline size_t lt_check_nothing(const lt_data *d, const unsigned *out, size_t n, void *work, long long *first_bad) {
  (void)d, (void)out, (void)n, (void)work;
  *first_bad = -1;
  return 0;
}

// out against the CPU's running maximum of the first n inputs.
static inline size_t lt_check_scan(const lt_data *d, const unsigned *out, size_t n, void *work, long long *first_bad) {
  (void)work;
  return lt_mismatches(out, d->want, n, first_bad);
}

// Every variant at every size, after the CPU reference for that size: one CSV
// row each, with GB/s of the 8 bytes per element a copy moves and the time
// over the copy's (variants[0] is the copy). Returns 1 if any check failed.
static inline int lt_sweep(const size_t *sizes, size_t n_sizes, const lt_variant *variants, size_t n_variants,
                           lt_data *d, unsigned *out, void *work) {
  printf("n,variant,median_us,gb_s,x_copy,mismatches,first_bad\n");
  int failed = 0;
  for (size_t s = 0; s < n_sizes; s++) {
    const size_t n = sizes[s];
    lt_cpu_max_scan(d->h_in, d->want, n);
    float copy_us = 0;
    for (size_t v = 0; v < n_variants; v++) {
      const float t = lt_time_poisoned_us(variants[v].run, d->in, out, n, work);
      if (v == 0) copy_us = t;
      long long first_bad;
      const size_t bad = variants[v].check(d, out, n, work, &first_bad);
      failed |= bad != 0;
      printf("%zu,%s,%.2f,%.1f,%.2f,%zu,%lld\n", n, variants[v].slug, t, 8.0 * n / (t * 1e3), t / copy_us, bad,
             first_bad);
    }
  }
  return failed;
}

#endif
