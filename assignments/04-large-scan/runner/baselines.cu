// baselines.cu: the bench's CUB rows for assignment 04, included by runner.cu
// only when built with -DRUNNER_BENCH (`make bench`); never part of a student's or
// the reference's runner, which must not contain a library scan.
//
//   cub_exclusive_sum   cub::DeviceScan::ExclusiveSum over the same n unsigned ints
//   cub_select_repeats  cub::DeviceSelect::If over the indices 0..n-1, keeping
//                       i when a[i] == a[i + 1]: CUB's single-pass compaction,
//                       the scan-based equivalent of find_repeats
// CUB's temporary storage is the row's workspace: sized before the calls,
// allocated once per case, untimed, like the student's.
#ifndef RUNNER_BENCH
#error "baselines.cu is for the bench build (-DRUNNER_BENCH) only"
#endif

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

// The predicate of cub_select_repeats.
struct ls_is_repeat {
  const unsigned *a;
  unsigned n;
  __device__ bool operator()(unsigned i) const { return i + 1 < n && a[i] == a[i + 1]; }
};

// Both calls in one place, so the size query and the timed call cannot differ.
// With temp == NULL it only sets *bytes (CUB's two-phase call).
static cudaError_t ls_cub(int baseline, const unsigned *in, unsigned *out, unsigned *count, size_t n, void *temp,
                            size_t *bytes) {
  // int item counts: CUB then uses 32-bit offsets, as a caller with n <= 2^28 would.
  int items = (int)n;
  if (baseline == LS_CUB_EXCLUSIVE_SUM) return cub::DeviceScan::ExclusiveSum(temp, *bytes, in, out, items);
  ls_is_repeat pred = {in, (unsigned)n};
  return cub::DeviceSelect::If(temp, *bytes, thrust::counting_iterator<unsigned>(0), out, count, items, pred);
}

static size_t ls_baseline_workspace(int baseline, size_t n) {
  size_t bytes = 0;
  RUNNER_CHECK(ls_cub(baseline, NULL, NULL, NULL, n, NULL, &bytes));
  return bytes;
}

static void ls_run_baseline(int baseline, const runner_call *c) {
  size_t bytes = c->work_bytes;
  unsigned *count = baseline == LS_CUB_SELECT_REPEATS ? (unsigned *)c->out[1] : NULL;
  RUNNER_CHECK(ls_cub(baseline, (const unsigned *)c->in[0], (unsigned *)c->out[0], count, (size_t)c->n, c->work, &bytes));
}
