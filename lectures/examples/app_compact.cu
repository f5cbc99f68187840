// app_compact.cu: lecture 06's stream compaction. Keep the keys below a
// threshold, in their input order, and count them: a flag per key, an
// exclusive scan of the flags gives each kept key its place, a scatter
// writes it there.
//
// Versions (each verified against the CPU reference before it is timed):
//   scan_scatter   three kernels: count the kept keys of each tile, scan the
//                  tile counts (one block), then each tile scans its flags
//                  again and scatters; stable (input order kept)
//   atomic_append  one kernel: each kept key takes a slot from one global
//                  atomicAdd counter; the same keys, in whatever order the
//                  atomics happened to run (not stable)
//   copy           a device-to-device copy of the n keys: the bandwidth to compare with
//
// Napkin math: scan_scatter reads the keys twice and writes the kept ones,
// (2n + kept) * 4 bytes; atomic_append reads once, (n + kept) * 4 bytes, but
// gives up the order. The CSV prints the bytes and the GB/s they make.
//
//   make lectures && build/lectures/app_compact     (needs a GPU; prints CSV)
#include "app_scan.h"

enum {
  THREADS = 256,              // threads per block
  ITEMS = 16,                 // keys per thread
  TILE = THREADS * ITEMS,     // keys per block: 4096
  REPS = 21,                  // timed runs per version (median)
};
static const size_t N = (size_t)1 << 24;
static const unsigned KEEP_PERCENT[] = {10, 50, 90};

// ---------------------------------------------------------------- CPU reference

// Whether key x is kept: it is below the threshold.
static __host__ __device__ __forceinline__ unsigned compact_keep(unsigned x, unsigned below) { return x < below; }

// The kept keys of in[0..n), in order, into out; returns how many.
static size_t compact_cpu(const unsigned *in, size_t n, unsigned below, unsigned *out) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (compact_keep(in[i], below)) out[kept++] = in[i];
  return kept;
}

// ---------------------------------------------------------------- kernels

// Pass 1. Block b counts the kept keys of its tile, keys b*TILE .. b*TILE+TILE-1;
// in round r thread t reads key r*THREADS + t of the tile (coalesced).
extern "C" __global__ void compact_count(const unsigned *in, size_t n, unsigned below, unsigned *tile_counts) {
  __shared__ unsigned spare[APP_WARP + 1];
  const size_t start = (size_t)blockIdx.x * TILE;
  unsigned mine = 0;
  for (unsigned r = 0; r < ITEMS; r++) {
    const size_t i = start + r * THREADS + threadIdx.x;
    mine += i < n && compact_keep(in[i], below);
  }
  const unsigned tile_total = app_block_sum(mine, spare);
  if (threadIdx.x == 0) tile_counts[blockIdx.x] = tile_total;
}

// Pass 3 (pass 2 is app_scan_counts). Block b reads its tile again in the same
// rounds; in each round an exclusive scan of the flags numbers the kept keys
// 0, 1, 2, ... in input order, and `next` (where the round's first kept key
// goes) starts at the tile's offset and grows by each round's count. No
// atomics: every kept key's place follows from the scan alone.
extern "C" __global__ void compact_scatter(const unsigned *in, size_t n, unsigned below, const unsigned *tile_offsets,
                                           unsigned *out) {
  __shared__ unsigned spare[APP_WARP + 1];
  const size_t start = (size_t)blockIdx.x * TILE;
  unsigned next = tile_offsets[blockIdx.x];
  for (unsigned r = 0; r < ITEMS; r++) {
    const size_t i = start + r * THREADS + threadIdx.x;
    const unsigned x = i < n ? in[i] : 0u;
    const unsigned flag = i < n && compact_keep(x, below);
    unsigned round_kept;
    const unsigned slot = app_block_exclusive_sum(flag, spare, &round_kept);
    if (flag) out[next + slot] = x;
    next += round_kept;
  }
}

// The other way: one thread per key, a slot from a global counter. Right
// count, right keys, order decided by the race between the atomics.
extern "C" __global__ void compact_atomic(const unsigned *in, size_t n, unsigned below, unsigned *count, unsigned *out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && compact_keep(in[i], below)) out[atomicAdd(count, 1u)] = in[i];
}

// ---------------------------------------------------------------- launchers

typedef struct compact_job {
  const unsigned *in;
  size_t n;
  unsigned below;
  unsigned *out, *tile_counts, *tile_offsets; // tile_offsets[tiles] is the count
  unsigned *count;                            // atomic_append's counter
} compact_job;

static unsigned compact_tiles(size_t n) { return (unsigned)((n + TILE - 1) / TILE); }

static void compact_run_scan(void *arg) {
  const compact_job *j = (const compact_job *)arg;
  const unsigned tiles = compact_tiles(j->n);
  compact_count<<<tiles, THREADS>>>(j->in, j->n, j->below, j->tile_counts);
  EX_CHECK(cudaGetLastError());
  app_scan_counts_run(j->tile_counts, j->tile_offsets, tiles);
  compact_scatter<<<tiles, THREADS>>>(j->in, j->n, j->below, j->tile_offsets, j->out);
  EX_CHECK(cudaGetLastError());
}

static void compact_run_atomic(void *arg) {
  const compact_job *j = (const compact_job *)arg;
  EX_CHECK(cudaMemsetAsync(j->count, 0, sizeof *j->count)); // part of the work: the next call needs 0
  compact_atomic<<<(unsigned)((j->n + THREADS - 1) / THREADS), THREADS>>>(j->in, j->n, j->below, j->count, j->out);
  EX_CHECK(cudaGetLastError());
}

static void compact_run_copy(void *arg) {
  const compact_job *j = (const compact_job *)arg;
  EX_CHECK(cudaMemcpyAsync(j->out, j->in, j->n * sizeof *j->in, cudaMemcpyDeviceToDevice));
}

// The table every loop below reads.
static const struct {
  const char *slug;
  void (*run)(void *);
  int stable; // whether the output must equal the CPU's, in order
} VERSIONS[] = {
    {"scan_scatter", compact_run_scan, 1},
    {"atomic_append", compact_run_atomic, 0},
    {"copy", compact_run_copy, 0},
};
#define N_VERSIONS (sizeof VERSIONS / sizeof *VERSIONS)

// Checks a compaction's output against the CPU's (want, kept keys): the count,
// the same keys (sorted copies compared), and how many are in their place.
// Returns whether it is right; *in_place gets the share (percent) in place.
static int compact_verify(const unsigned *got, size_t got_count, const unsigned *want, size_t kept, int stable,
                          double *in_place) {
  if (got_count != kept) return 0;
  size_t same = 0;
  for (size_t i = 0; i < kept; i++) same += got[i] == want[i];
  *in_place = kept ? 100.0 * (double)same / (double)kept : 100.0;
  if (stable) return same == kept;
  unsigned *a = (unsigned *)APP_HOST_ALLOC(kept * sizeof *a), *b = (unsigned *)APP_HOST_ALLOC(kept * sizeof *b);
  memcpy(a, got, kept * sizeof *a);
  memcpy(b, want, kept * sizeof *b);
  qsort(a, kept, sizeof *a, app_compare_unsigned);
  qsort(b, kept, sizeof *b, app_compare_unsigned);
  const int ok = memcmp(a, b, kept * sizeof *a) == 0;
  free(a);
  free(b);
  return ok;
}

// ---------------------------------------------------------------- main

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "stream compaction, scan vs atomics vs a copy,");
  ex_print_gpu("lecture 06", "app_compact");
  const unsigned tiles = compact_tiles(N);
  unsigned *h_in = (unsigned *)APP_HOST_ALLOC(N * sizeof *h_in), *h_want = (unsigned *)APP_HOST_ALLOC(N * sizeof *h_want),
           *h_got = (unsigned *)APP_HOST_ALLOC(N * sizeof *h_got);
  unsigned long long seed = 6;
  for (size_t i = 0; i < N; i++) h_in[i] = (unsigned)(app_next(&seed) >> 32);

  compact_job job = {NULL, N, 0, NULL, NULL, NULL, NULL};
  unsigned *d_in = (unsigned *)ex_dev_zeros(N * sizeof *d_in);
  EX_CHECK(cudaMemcpy(d_in, h_in, N * sizeof *h_in, cudaMemcpyHostToDevice));
  job.in = d_in;
  job.out = (unsigned *)ex_dev_zeros(N * sizeof *job.out);
  job.tile_counts = (unsigned *)ex_dev_zeros(tiles * sizeof *job.tile_counts);
  job.tile_offsets = (unsigned *)ex_dev_zeros((tiles + 1) * sizeof *job.tile_offsets);
  job.count = (unsigned *)ex_dev_zeros(sizeof *job.count);

  printf("variant,n,keep_percent,kept,ok,in_place_percent,ms,bytes,GB_per_s\n");
  int all_ok = 1;
  for (size_t k = 0; k < sizeof KEEP_PERCENT / sizeof *KEEP_PERCENT; k++) {
    job.below = (unsigned)(4294967296.0 * KEEP_PERCENT[k] / 100.0);
    const size_t kept = compact_cpu(h_in, N, job.below, h_want);
    for (size_t v = 0; v < N_VERSIONS; v++) {
      const int is_copy = VERSIONS[v].run == compact_run_copy;
      EX_CHECK(cudaMemset(job.out, 0xff, N * sizeof *job.out)); // poison: an unwritten slot shows
      VERSIONS[v].run(&job);
      EX_CHECK_LAUNCH();
      unsigned count = (unsigned)N;
      if (VERSIONS[v].run == compact_run_scan) EX_CHECK(cudaMemcpy(&count, job.tile_offsets + tiles, sizeof count, cudaMemcpyDeviceToHost));
      if (VERSIONS[v].run == compact_run_atomic) EX_CHECK(cudaMemcpy(&count, job.count, sizeof count, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(h_got, job.out, N * sizeof *h_got, cudaMemcpyDeviceToHost));
      double in_place = 100.0;
      const int ok = is_copy ? !memcmp(h_got, h_in, N * sizeof *h_in)
                             : compact_verify(h_got, count, h_want, kept, VERSIONS[v].stable, &in_place);
      all_ok &= ok;
      const float ms = app_time(VERSIONS[v].run, &job, REPS);
      const double bytes = 4.0 * (is_copy ? 2.0 * N : VERSIONS[v].stable ? 2.0 * N + kept : (double)N + kept);
      printf("%s,%zu,%u,%zu,%d,%.1f,%.4f,%.0f,%.1f\n", VERSIONS[v].slug, N, KEEP_PERCENT[k], is_copy ? N : kept, ok,
             in_place, ms, bytes, bytes / (ms * 1e6));
    }
  }
  void *const buffers[] = {d_in, job.out, job.tile_counts, job.tile_offsets, job.count};
  app_dev_free_all(buffers, sizeof buffers / sizeof *buffers);
  free(h_in);
  free(h_want);
  free(h_got);
  if (!all_ok) fprintf(stderr, "%s:%d: a version's output differs from the CPU reference (ok=0 above)\n", __FILE__, __LINE__);
  return all_ok ? 0 : 1;
}
