// app_radix_sort.cu: lecture 06's least-significant-digit radix sort of
// 32-bit keys, built on the scan, timed against CUB's radix sort.
//
// Each pass sorts the keys by one 4-bit digit (bits 0-3 first, 28-31 last),
// stably, so after eight passes they are sorted by all 32 bits. A pass is
// three kernels:
//   radix_histogram   each block counts the 16 digits of its tile of 4096 keys
//                     and writes them as counts[digit * tiles + tile]
//   app_scan_counts   an exclusive scan of those 16 * tiles counts: in that
//                     order (digit-major) the scan is, for each digit and
//                     tile, where the tile's keys of that digit start in the output
//   radix_scatter     each block ranks its keys within the tile, stably, and
//                     writes each one to its start + rank
// Versions: radix_sort_4bit (ours) and cub_sort_keys
// (cub::DeviceRadixSort::SortKeys of the CUB that ships with the toolkit).
// Both are checked against the C library's qsort before they are timed.
//
// Napkin math: a pass reads the keys twice and writes them once, 12 bytes a
// key; eight passes, 96 bytes a key. CUB's onesweep sort reads and writes the
// keys once a pass (8 bits a pass, four passes) after one histogram pass over
// all digits, about 36 bytes a key.
//
//   make lectures && build/lectures/app_radix_sort     (needs a GPU; prints CSV)
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include "app_scan.h"

enum {
  RADIX_BITS = 4,                    // bits of the key per pass
  RADIX = 1 << RADIX_BITS,           // digits: 16
  PASSES = 32 / RADIX_BITS,          // 8
  THREADS = 256,                     // threads per block
  ITEMS = 16,                        // keys per thread
  TILE = THREADS * ITEMS,            // keys per block: 4096
  RANKS = RADIX * THREADS,           // one counter per digit and thread
  REPS = 11,                         // timed sorts per version (median)
};
static const size_t SIZES[] = {(size_t)1 << 20, (size_t)1 << 22, (size_t)1 << 24};

// The digit of a key that pass `shift` (0, 4, ..., 28) sorts by.
static __host__ __device__ __forceinline__ unsigned radix_digit(unsigned key, unsigned shift) {
  return (key >> shift) & (RADIX - 1);
}

// A shared-memory index with one spare word after every 32, so that thread t
// reading word t * 16 + k (each thread its own run of 16) hits 32 different
// banks across a warp instead of two (lecture 03's padding).
static __device__ __forceinline__ unsigned radix_pad(unsigned j) { return j + j / APP_WARP; }
#define RADIX_PADDED(words) ((words) + (words) / APP_WARP)

// ---------------------------------------------------------------- kernels

// Block b counts the digits of its tile, keys b*TILE .. b*TILE+TILE-1 (round r:
// thread t reads key r*THREADS + t, coalesced), with shared-memory atomics:
// the order of the increments does not matter for a count.
extern "C" __global__ void radix_histogram(const unsigned *keys, size_t n, unsigned shift, unsigned *counts) {
  __shared__ unsigned hist[RADIX];
  if (threadIdx.x < RADIX) hist[threadIdx.x] = 0;
  __syncthreads(); // orders: the counters are zero before anyone adds
  const size_t start = (size_t)blockIdx.x * TILE;
  for (unsigned r = 0; r < ITEMS; r++) {
    const size_t i = start + r * THREADS + threadIdx.x;
    if (i < n) atomicAdd(&hist[radix_digit(keys[i], shift)], 1u);
  }
  __syncthreads(); // orders: every key is counted before the counts are written
  if (threadIdx.x < RADIX) counts[threadIdx.x * gridDim.x + blockIdx.x] = hist[threadIdx.x];
}

// Block b moves its tile's keys to their places. starts[d * tiles + b] is where
// the keys of digit d of tile b begin in the output (the scan of the counts).
// Within the tile the rank must keep input order: thread t owns the run of
// keys t*ITEMS .. t*ITEMS+ITEMS-1 and counts its digits into ranks[d][t]; an
// exclusive scan of ranks in digit-major order (all of digit 0 by thread, then
// digit 1, ...) turns each counter into the slot, within the tile, of that
// thread's first key of that digit. Subtracting the tile's first slot of the
// digit gives the rank among the tile's keys of that digit.
extern "C" __global__ void radix_scatter(const unsigned *keys, unsigned *out, size_t n, unsigned shift,
                                         const unsigned *starts) {
  __shared__ unsigned tile[RADIX_PADDED(TILE)];   // the tile's keys
  __shared__ unsigned ranks[RADIX_PADDED(RANKS)]; // ranks[pad(d * THREADS + t)]
  __shared__ unsigned base[RADIX];                // per digit: output start - tile's first slot
  __shared__ unsigned spare[APP_WARP + 1];
  const unsigned t = threadIdx.x;
  const size_t start = (size_t)blockIdx.x * TILE;
  const unsigned tile_n = n - start < TILE ? (unsigned)(n - start) : (unsigned)TILE;

  for (unsigned r = 0; r < ITEMS; r++) { // coalesced load, as in the histogram
    const unsigned j = r * THREADS + t;
    if (j < tile_n) tile[radix_pad(j)] = keys[start + j];
  }
  for (unsigned d = 0; d < RADIX; d++) ranks[radix_pad(d * THREADS + t)] = 0;
  __syncthreads(); // orders: the tile is loaded before threads read each other's keys

  for (unsigned k = 0; k < ITEMS; k++) { // thread t counts its own run; it alone writes column t
    const unsigned j = t * ITEMS + k;
    if (j < tile_n) ranks[radix_pad(radix_digit(tile[radix_pad(j)], shift) * THREADS + t)]++;
  }
  __syncthreads(); // orders: all counts are in before the scan reads them

  // The scan of RANKS counters: thread t sums RADIX consecutive ones, the block
  // scans the sums, and thread t writes its counters' running totals back.
  unsigned mine = 0, tile_total;
  for (unsigned k = 0; k < RADIX; k++) mine += ranks[radix_pad(t * RADIX + k)];
  unsigned slot = app_block_exclusive_sum(mine, spare, &tile_total);
  for (unsigned k = 0; k < RADIX; k++) {
    const unsigned e = radix_pad(t * RADIX + k), count = ranks[e];
    ranks[e] = slot;
    slot += count;
  }
  __syncthreads(); // orders: the scanned counters are written before any thread reads another's
  if (t < RADIX) base[t] = starts[t * gridDim.x + blockIdx.x] - ranks[radix_pad(t * THREADS)];
  __syncthreads(); // orders: base is written before the scatter reads it

  for (unsigned k = 0; k < ITEMS; k++) { // in run order, so equal digits keep their order
    const unsigned j = t * ITEMS + k;
    if (j < tile_n) {
      const unsigned key = tile[radix_pad(j)], d = radix_digit(key, shift);
      out[base[d] + ranks[radix_pad(d * THREADS + t)]++] = key;
    }
  }
}

// ---------------------------------------------------------------- launchers

typedef struct sort_job {
  const unsigned *in; // never written: every sort starts from the same keys
  unsigned *out;      // the sorted keys
  unsigned *spare;    // the other buffer of the passes
  size_t n;
  unsigned *counts, *starts; // RADIX * tiles, and one more for the total
  void *cub_temp;
  size_t cub_bytes;
} sort_job;

static unsigned radix_tiles(size_t n) { return (unsigned)((n + TILE - 1) / TILE); }

// Eight passes, ping-ponging between spare and out; the first writes spare if
// the number of passes is even, so that the last one writes out.
static void radix_sort_run(void *arg) {
  const sort_job *j = (const sort_job *)arg;
  const unsigned tiles = radix_tiles(j->n);
  const unsigned *src = j->in;
  for (unsigned pass = 0; pass < PASSES; pass++) {
    unsigned *dst = (PASSES - 1 - pass) % 2 == 0 ? j->out : j->spare;
    const unsigned shift = pass * RADIX_BITS;
    radix_histogram<<<tiles, THREADS>>>(src, j->n, shift, j->counts);
    EX_CHECK(cudaGetLastError());
    app_scan_counts_run(j->counts, j->starts, RADIX * tiles);
    radix_scatter<<<tiles, THREADS>>>(src, dst, j->n, shift, j->starts);
    EX_CHECK(cudaGetLastError());
    src = dst;
  }
}

static void cub_sort_run(void *arg) {
  sort_job *j = (sort_job *)arg;
  EX_CHECK(cub::DeviceRadixSort::SortKeys(j->cub_temp, j->cub_bytes, j->in, j->out, (int)j->n));
}

// The table every loop below reads.
static const struct {
  const char *slug;
  void (*run)(void *);
  int bits; // bits per pass
} VERSIONS[] = {
    {"cub_sort_keys", cub_sort_run, 8},
    {"radix_sort_4bit", radix_sort_run, RADIX_BITS},
};
#define N_VERSIONS (sizeof VERSIONS / sizeof *VERSIONS)

// ---------------------------------------------------------------- main

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "our radix sort against CUB's");
  ex_print_gpu("lecture 06", "app_radix_sort");
  printf("# CUB %d.%d.%d, the one this CUDA toolkit ships (CUB_VERSION %d)\n", CUB_MAJOR_VERSION, CUB_MINOR_VERSION,
         CUB_SUBMINOR_VERSION, CUB_VERSION);
  const size_t max_n = SIZES[sizeof SIZES / sizeof *SIZES - 1];
  unsigned *h_in = (unsigned *)APP_HOST_ALLOC(max_n * sizeof *h_in), *h_want = (unsigned *)APP_HOST_ALLOC(max_n * sizeof *h_want),
           *h_got = (unsigned *)APP_HOST_ALLOC(max_n * sizeof *h_got);
  unsigned long long seed = 32;
  for (size_t i = 0; i < max_n; i++) h_in[i] = (unsigned)(app_next(&seed) >> 32);

  sort_job job;
  memset(&job, 0, sizeof job);
  unsigned *d_in = (unsigned *)ex_dev_zeros(max_n * sizeof *d_in);
  EX_CHECK(cudaMemcpy(d_in, h_in, max_n * sizeof *h_in, cudaMemcpyHostToDevice));
  job.in = d_in;
  job.out = (unsigned *)ex_dev_zeros(max_n * sizeof *job.out);
  job.spare = (unsigned *)ex_dev_zeros(max_n * sizeof *job.spare);
  job.counts = (unsigned *)ex_dev_zeros(RADIX * radix_tiles(max_n) * sizeof *job.counts);
  job.starts = (unsigned *)ex_dev_zeros((RADIX * radix_tiles(max_n) + 1) * sizeof *job.starts);
  job.n = max_n; // CUB's workspace for the largest size serves the smaller ones too
  EX_CHECK(cub::DeviceRadixSort::SortKeys(NULL, job.cub_bytes, job.in, job.out, (int)job.n));
  EX_CHECK(cudaMalloc(&job.cub_temp, job.cub_bytes));

  printf("sort,n,bits_per_pass,ok,ms,Mkeys_per_s,time_over_cub\n");
  int all_ok = 1;
  for (size_t s = 0; s < sizeof SIZES / sizeof *SIZES; s++) {
    job.n = SIZES[s];
    memcpy(h_want, h_in, job.n * sizeof *h_in);
    qsort(h_want, job.n, sizeof *h_want, app_compare_unsigned); // the CPU reference
    float cub_ms = 0;
    for (size_t v = 0; v < N_VERSIONS; v++) {
      EX_CHECK(cudaMemset(job.out, 0xff, job.n * sizeof *job.out)); // poison: an unwritten key shows
      VERSIONS[v].run(&job);
      EX_CHECK_LAUNCH();
      EX_CHECK(cudaMemcpy(h_got, job.out, job.n * sizeof *h_got, cudaMemcpyDeviceToHost));
      const int ok = !memcmp(h_got, h_want, job.n * sizeof *h_got);
      all_ok &= ok;
      const float ms = app_time(VERSIONS[v].run, &job, REPS);
      if (VERSIONS[v].run == cub_sort_run) cub_ms = ms;
      printf("%s,%zu,%d,%d,%.4f,%.1f,%.2f\n", VERSIONS[v].slug, job.n, VERSIONS[v].bits, ok, ms,
             (double)job.n / (ms * 1e3), ms / cub_ms);
    }
  }
  void *const buffers[] = {d_in, job.out, job.spare, job.counts, job.starts, job.cub_temp};
  app_dev_free_all(buffers, sizeof buffers / sizeof *buffers);
  free(h_in);
  free(h_want);
  free(h_got);
  if (!all_ok) fprintf(stderr, "%s:%d: a sort differs from qsort's (ok=0 above)\n", __FILE__, __LINE__);
  return all_ok ? 0 : 1;
}
