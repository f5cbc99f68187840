// app_binning.cu: lecture 06's binning, the renderer's tile lists on a toy
// problem. Intervals [lo, hi] on a line of integers stand for circles, equal
// buckets of the line for tiles; each bucket needs the list of the intervals
// that touch it, in increasing index (a renderer blends in that order).
//
// Versions, both building global per-bucket lists in one buffer:
//   scan_lists     count: one block per bucket tests every interval and counts
//                  the hits; scan: the counts give each bucket's start;
//                  fill: each block tests the intervals again, chunk by chunk,
//                  and an exclusive scan of the hit flags gives each hit its
//                  slot. Lists in index order, by construction.
//   atomic_lists   the same counts and starts, then one thread per interval
//                  appends its index to each bucket it touches with atomicAdd
//                  on the bucket's cursor. The same entries, in the order the
//                  atomics ran.
// First the tiny problem (10 intervals, 4 buckets), printed as lists; then a
// larger random one, checked against the CPU reference: whether each version
// has the right entries, and how many buckets it left in index order.
//
//   make lectures && build/lectures/app_binning        (needs a GPU; prints CSV)
//   build/lectures/app_binning --cpu                   (the tiny problem's lists, CPU reference, no GPU)
#include "app_scan.h"

enum {
  THREADS = 256, // threads per block: a chunk of 256 intervals per round
};

// An interval of the line, both ends included (lo <= hi).
typedef struct interval {
  unsigned lo, hi;
} interval;

// One problem: n intervals and `buckets` buckets of `width` integers each.
typedef struct bin_problem {
  const interval *v;
  unsigned n, buckets, width;
} bin_problem;

// The tiny problem: a line of 100, buckets 0-24, 25-49, 50-74, 75-99.
static const interval TINY[] = {{10, 20}, {15, 60}, {70, 95}, {30, 40}, {5, 90},
                                {55, 58}, {80, 99}, {20, 30}, {45, 52}, {90, 99}};
enum { TINY_N = sizeof TINY / sizeof *TINY, TINY_BUCKETS = 4, TINY_WIDTH = 25 };
// The larger one: random intervals of up to MAX_LENGTH on a line of BUCKETS * WIDTH.
enum { BIG_N = 100000, BIG_BUCKETS = 256, BIG_WIDTH = 4096, MAX_LENGTH = 16384 };

// Whether interval v touches bucket b (the buckets are [b*w, b*w + w - 1]).
static __host__ __device__ __forceinline__ unsigned bin_touches(interval v, unsigned b, unsigned w) {
  return v.lo <= b * w + (w - 1) && v.hi >= b * w;
}

// ---------------------------------------------------------------- CPU reference

// The lists of every bucket into counts[b], starts[b] (starts[buckets] = the
// number of entries) and lists[starts[b] ..]; lists holds n * buckets at most.
static void bin_cpu(bin_problem p, unsigned *counts, unsigned *starts, unsigned *lists) {
  unsigned next = 0;
  for (unsigned b = 0; b < p.buckets; b++) {
    starts[b] = next;
    for (unsigned i = 0; i < p.n; i++)
      if (bin_touches(p.v[i], b, p.width)) lists[next++] = i;
    counts[b] = next - starts[b];
  }
  starts[p.buckets] = next;
}

// Prints one row per bucket: its range, count, start and list.
static void bin_print(bin_problem p, const unsigned *counts, const unsigned *starts, const unsigned *lists) {
  printf("bucket,first,last,count,start,intervals\n");
  for (unsigned b = 0; b < p.buckets; b++) {
    printf("%u,%u,%u,%u,%u,", b, b * p.width, b * p.width + p.width - 1, counts[b], starts[b]);
    for (unsigned k = 0; k < counts[b]; k++) printf("%s%u", k ? " " : "", lists[starts[b] + k]);
    printf("\n");
  }
}

static void bin_print_intervals(bin_problem p) {
  printf("interval,lo,hi\n");
  for (unsigned i = 0; i < p.n; i++) printf("%u,%u,%u\n", i, p.v[i].lo, p.v[i].hi);
}

// ---------------------------------------------------------------- kernels

// Block b counts the intervals that touch bucket b: thread t tests intervals
// t, t + 256, t + 512, ...; one block sum at the end. Work: n tests per bucket.
extern "C" __global__ void bin_count(const interval *v, unsigned n, unsigned width, unsigned *counts) {
  __shared__ unsigned spare[APP_WARP + 1];
  unsigned mine = 0;
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) mine += bin_touches(v[i], blockIdx.x, width);
  const unsigned total = app_block_sum(mine, spare);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// Block b fills bucket b's list, chunk by chunk of 256 intervals in index
// order: the exclusive scan of the chunk's hit flags numbers its hits in
// index order, and `next` moves past them. The list comes out sorted by index
// without any sort, and without atomics.
extern "C" __global__ void bin_fill(const interval *v, unsigned n, unsigned width, const unsigned *starts,
                                    unsigned *lists) {
  __shared__ unsigned spare[APP_WARP + 1];
  unsigned next = starts[blockIdx.x];
  for (unsigned chunk = 0; chunk < n; chunk += blockDim.x) {
    const unsigned i = chunk + threadIdx.x;
    const unsigned hit = i < n && bin_touches(v[i], blockIdx.x, width);
    unsigned chunk_hits;
    const unsigned slot = app_block_exclusive_sum(hit, spare, &chunk_hits);
    if (hit) lists[next + slot] = i;
    next += chunk_hits;
  }
}

// Thread i appends interval i to each bucket it touches. cursors[] start at 0.
extern "C" __global__ void bin_fill_atomic(const interval *v, unsigned n, unsigned width, unsigned buckets,
                                           const unsigned *starts, unsigned *cursors, unsigned *lists) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned last = min(v[i].hi / width, buckets - 1);
  for (unsigned b = v[i].lo / width; b <= last; b++) lists[starts[b] + atomicAdd(&cursors[b], 1u)] = i;
}

// ---------------------------------------------------------------- launchers

// The device side of a problem: the intervals and the lists.
typedef struct bin_device {
  interval *v;
  unsigned *counts, *starts, *cursors, *lists;
} bin_device;

static bin_device bin_device_make(bin_problem p, unsigned max_entries) {
  bin_device d;
  d.v = (interval *)ex_dev_zeros(p.n * sizeof *d.v);
  EX_CHECK(cudaMemcpy(d.v, p.v, p.n * sizeof *p.v, cudaMemcpyHostToDevice));
  d.counts = (unsigned *)ex_dev_zeros(p.buckets * sizeof *d.counts);
  d.starts = (unsigned *)ex_dev_zeros((p.buckets + 1) * sizeof *d.starts);
  d.cursors = (unsigned *)ex_dev_zeros(p.buckets * sizeof *d.cursors);
  d.lists = (unsigned *)ex_dev_zeros((max_entries + 1) * sizeof *d.lists);
  return d;
}

static void bin_device_free(bin_device *d) {
  void *const buffers[] = {d->v, d->counts, d->starts, d->cursors, d->lists};
  app_dev_free_all(buffers, sizeof buffers / sizeof *buffers);
}

// Count and scan: the same first two steps for both versions.
static void bin_count_and_scan(bin_problem p, const bin_device *d) {
  bin_count<<<p.buckets, THREADS>>>(d->v, p.n, p.width, d->counts);
  EX_CHECK_LAUNCH();
  app_scan_counts_run(d->counts, d->starts, p.buckets);
  EX_CHECK_LAUNCH();
}

static void bin_run_scan(bin_problem p, const bin_device *d) {
  bin_count_and_scan(p, d);
  bin_fill<<<p.buckets, THREADS>>>(d->v, p.n, p.width, d->starts, d->lists);
  EX_CHECK_LAUNCH();
}

static void bin_run_atomic(bin_problem p, const bin_device *d) {
  bin_count_and_scan(p, d);
  EX_CHECK(cudaMemset(d->cursors, 0, p.buckets * sizeof *d->cursors));
  bin_fill_atomic<<<(p.n + THREADS - 1) / THREADS, THREADS>>>(d->v, p.n, p.width, p.buckets, d->starts, d->cursors,
                                                              d->lists);
  EX_CHECK_LAUNCH();
}

// The table every loop below reads.
static const struct {
  const char *slug;
  void (*run)(bin_problem, const bin_device *);
} VERSIONS[] = {
    {"scan_lists", bin_run_scan},
    {"atomic_lists", bin_run_atomic},
};
#define N_VERSIONS (sizeof VERSIONS / sizeof *VERSIONS)

// ---------------------------------------------------------------- checks

// Compares the GPU's lists (got) with the CPU's (want, starts and counts as
// the CPU's): whether every bucket holds the right intervals, and how many
// buckets hold them in index order.
static int bin_verify(bin_problem p, const unsigned *starts, const unsigned *got, const unsigned *want,
                      unsigned *in_order) {
  int ok = 1;
  *in_order = 0;
  for (unsigned b = 0; b < p.buckets; b++) {
    const unsigned s = starts[b], c = starts[b + 1] - s;
    *in_order += !memcmp(got + s, want + s, c * sizeof *got);
    unsigned *sorted = (unsigned *)APP_HOST_ALLOC(c * sizeof *sorted);
    memcpy(sorted, got + s, c * sizeof *sorted);
    qsort(sorted, c, sizeof *sorted, app_compare_unsigned); // the CPU's list is sorted already
    ok &= !memcmp(sorted, want + s, c * sizeof *sorted);
    free(sorted);
  }
  return ok;
}

// ---------------------------------------------------------------- main

// The CPU reference's lists for a problem: counts, starts and lists (malloc'd).
static void bin_cpu_alloc(bin_problem p, unsigned **counts, unsigned **starts, unsigned **lists) {
  *counts = (unsigned *)APP_HOST_ALLOC(p.buckets * sizeof **counts);
  *starts = (unsigned *)APP_HOST_ALLOC((p.buckets + 1) * sizeof **starts);
  *lists = (unsigned *)APP_HOST_ALLOC((size_t)p.n * p.buckets * sizeof **lists);
  bin_cpu(p, *counts, *starts, *lists);
}

static int bin_main_cpu(bin_problem tiny) {
  unsigned *counts, *starts, *lists;
  bin_cpu_alloc(tiny, &counts, &starts, &lists);
  printf("# lecture 06, app_binning --cpu: the tiny problem's lists by the CPU reference\n");
  bin_print_intervals(tiny);
  bin_print(tiny, counts, starts, lists);
  free(counts);
  free(starts);
  free(lists);
  return 0;
}

int main(int argc, char **argv) {
  const bin_problem tiny = {TINY, TINY_N, TINY_BUCKETS, TINY_WIDTH};
  if (argc == 2 && !strcmp(argv[1], "--cpu")) return bin_main_cpu(tiny);
  if (argc > 1) {
    fprintf(stderr, "%s: %s: takes no arguments but --cpu (the tiny problem's lists, no GPU needed)\n", argv[0], argv[1]);
    return 2;
  }
  ex_print_gpu("lecture 06", "app_binning");

  static interval big_v[BIG_N];
  unsigned long long seed = 1216;
  for (unsigned i = 0; i < BIG_N; i++) {
    const unsigned line = BIG_BUCKETS * BIG_WIDTH, lo = (unsigned)(app_next(&seed) % line);
    const unsigned len = (unsigned)(app_next(&seed) % MAX_LENGTH);
    big_v[i].lo = lo;
    big_v[i].hi = lo + len < line ? lo + len : line - 1;
  }
  const bin_problem problems[] = {tiny, {big_v, BIG_N, BIG_BUCKETS, BIG_WIDTH}};
  int all_ok = 1;
  for (size_t q = 0; q < sizeof problems / sizeof *problems; q++) {
    const bin_problem p = problems[q];
    unsigned *counts, *starts, *want;
    bin_cpu_alloc(p, &counts, &starts, &want);
    const unsigned entries = starts[p.buckets];
    unsigned *got = (unsigned *)APP_HOST_ALLOC((entries + 1) * sizeof *got);
    bin_device d = bin_device_make(p, entries);
    if (q == 0) { // the tiny problem: the lists of the scan version, as the CPU prints them
      bin_run_scan(p, &d);
      unsigned gpu_counts[TINY_BUCKETS], gpu_starts[TINY_BUCKETS + 1];
      EX_CHECK(cudaMemcpy(gpu_counts, d.counts, sizeof gpu_counts, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(gpu_starts, d.starts, sizeof gpu_starts, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(got, d.lists, entries * sizeof *got, cudaMemcpyDeviceToHost));
      printf("# the tiny problem, lists by scan_lists\n");
      bin_print(p, gpu_counts, gpu_starts, got);
      printf("# checks against the CPU reference\n");
      printf("variant,intervals,buckets,entries,ok,buckets_in_order,list_bytes\n");
    }
    for (size_t v = 0; v < N_VERSIONS; v++) {
      EX_CHECK(cudaMemset(d.lists, 0xff, (entries + 1) * sizeof *d.lists)); // poison: an unwritten slot shows
      EX_CHECK(cudaMemset(d.starts, 0xff, (p.buckets + 1) * sizeof *d.starts));
      VERSIONS[v].run(p, &d);
      unsigned gpu_starts_end = 0, in_order = 0;
      EX_CHECK(cudaMemcpy(&gpu_starts_end, d.starts + p.buckets, sizeof gpu_starts_end, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(got, d.lists, (entries + 1) * sizeof *got, cudaMemcpyDeviceToHost));
      const int ok = gpu_starts_end == entries && got[entries] == 0xffffffffu && bin_verify(p, starts, got, want, &in_order);
      all_ok &= ok;
      // the lists, plus counts, starts and (atomic_lists) cursors: 4 bytes each
      const size_t bytes = 4 * ((size_t)entries + 2 * p.buckets + 1 + (VERSIONS[v].run == bin_run_atomic ? p.buckets : 0));
      printf("%s,%u,%u,%u,%d,%u,%zu\n", VERSIONS[v].slug, p.n, p.buckets, entries, ok, in_order, bytes);
    }
    bin_device_free(&d);
    free(counts);
    free(starts);
    free(want);
    free(got);
  }
  if (!all_ok) fprintf(stderr, "%s:%d: a version's lists differ from the CPU reference (ok=0 above)\n", __FILE__, __LINE__);
  return all_ok ? 0 : 1;
}
