// baselines.cu: the bench's CUB rows for assignment 04, included by main.cu
// only when built with -DHX_BENCH (`make bench`); never part of a student's or
// the reference's harness, which must not contain a library scan.
//
//   cub_exclusive_sum   cub::DeviceScan::ExclusiveSum over the same n unsigned ints
//   cub_select_repeats  cub::DeviceSelect::If over the indices 0..n-1, keeping
//                       i when a[i] == a[i + 1]: CUB's single-pass compaction,
//                       the scan-based equivalent of find_repeats
#ifndef HX_BENCH
#error "baselines.cu is for the bench build (-DHX_BENCH) only"
#endif

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

typedef enum hx04_baseline_id { HX04_CUB_EXCLUSIVE_SUM, HX04_CUB_SELECT_REPEATS, HX04_N_BASELINES } hx04_baseline_id;

static const hx_variant hx04_baselines[] = {
    {"cub_exclusive_sum", "cub::DeviceScan::ExclusiveSum"},
    {"cub_select_repeats", "cub::DeviceSelect::If over indices, a[i] == a[i+1]"},
};
// The variant each baseline does the work of: its setup and expected outputs,
// and the rows it is the x_base of.
static const int hx04_baseline_variants[HX04_N_BASELINES] = {HX04_DECOUPLED_LOOKBACK, HX04_FIND_REPEATS};

// The predicate of cub_select_repeats.
struct hx04_is_repeat {
  const unsigned *a;
  unsigned n;
  __device__ bool operator()(unsigned i) const { return i + 1 < n && a[i] == a[i + 1]; }
};

// Both calls in one place, so the size query and the timed call cannot differ.
// With temp == NULL it only sets *bytes (CUB's two-phase call).
static cudaError_t hx04_cub(int baseline, hx04_state *s, void *temp, size_t *bytes) {
  // int item counts: CUB then uses 32-bit offsets, as a caller with n <= 2^28 would.
  int n = (int)s->n;
  if (baseline == HX04_CUB_EXCLUSIVE_SUM)
    return cub::DeviceScan::ExclusiveSum(temp, *bytes, s->d_in, s->d_out ? s->d_out : s->d_indices, n);
  hx04_is_repeat pred = {s->d_in, (unsigned)s->n};
  unsigned *indices = s->d_indices ? s->d_indices : s->d_out;
  return cub::DeviceSelect::If(temp, *bytes, thrust::counting_iterator<unsigned>(0), indices, s->d_count, n, pred);
}

// Untimed, from setup: CUB's temporary storage for the larger of the two
// rows, and a count word for a scan case (find_repeats cases have their own).
static void hx04_baseline_prepare(hx04_state *s) {
  if (!s->d_count) s->d_count = (unsigned *)hx_dev_malloc(sizeof(unsigned));
  size_t most = 0;
  for (int b = 0; b < HX04_N_BASELINES; b++) {
    size_t bytes = 0;
    HX_CHECK(hx04_cub(b, s, NULL, &bytes));
    if (bytes > most) most = bytes;
  }
  s->cub_temp_bytes = most;
  s->cub_temp = hx_dev_malloc(most ? most : 1);
}

static void hx04_run_baseline(void *p, int baseline) {
  hx04_state *s = (hx04_state *)p;
  size_t bytes = s->cub_temp_bytes;
  HX_CHECK(hx04_cub(baseline, s, s->cub_temp, &bytes));
}
