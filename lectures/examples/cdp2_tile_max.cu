// cdp2_tile_max.cu: lecture 05's dynamic-parallelism example, in the CDP2
// model (CUDA 12 and later; the only one on sm_90). The maximum of n unsigned
// ints by levels of tile maxima (n -> n/1024 -> ... -> 1), two ways:
//
//   host_levels   the host computes the levels and launches one grid per level
//   cdp2_levels   the host launches one thread; it launches the level's grid
//                 into the fire-and-forget stream and, if more than one tile
//                 remains, launches itself on the tile maxima into the tail-launch
//                 stream: that grid starts only once this one and everything it
//                 launched have finished, so it sees the maxima without any
//                 device-side wait (CDP2 removed cudaDeviceSynchronize from device code)
//
// Device-side launch errors go to a flag the host reads. Prints CSV: n,
// variant, levels, median us, whether the maximum was right.
//
//   make lectures && build/lectures/cdp2_tile_max     (needs a GPU; built with -rdc=true -lcudadevrt)
#include "large_tile.h"

// One block per tile: out[tile] = the tile's max.
extern "C" __global__ void tile_max(const unsigned *in, size_t n, unsigned *out) {
  const unsigned m = lt_tile_max(in, n, blockIdx.x);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

// A device-side launch reports its error here (the first one wins); the host checks.
static __device__ void note_launch(int *err) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) atomicCAS(err, 0, (int)e);
}

// One thread: one level. Reads `in` (n values), writes lt_tiles(n) maxima to
// `out`, or the answer to *result when one tile is left. The next level reads
// `out` and writes `spare`, so the caller's input is never written.
extern "C" __global__ void cdp2_level(const unsigned *in, size_t n, unsigned *out, unsigned *spare, unsigned *result, int *err) {
  const size_t tiles = lt_tiles(n);
  // fire-and-forget: runs on its own, in no order with this grid's other launches
  tile_max<<<(unsigned)tiles, LT_THREADS, 0, cudaStreamFireAndForget>>>(in, n, tiles == 1 ? result : out);
  note_launch(err);
  if (tiles == 1) return;
  // tail launch: starts after this grid and all the work it launched are done,
  // which is the ordering a device-side cudaDeviceSynchronize gave under CDP1
  cdp2_level<<<1, 1, 0, cudaStreamTailLaunch>>>(out, tiles, spare, out, result, err);
  note_launch(err);
}

// ---------------------------------------------------------------- host

static int levels_of(size_t n) {
  int levels = 1;
  for (; n > LT_TILE; n = lt_tiles(n)) levels++;
  return levels;
}

// The workspace: the error flag, the result, then two buffers of tile maxima.
typedef struct cdp_work {
  int *err;
  unsigned *result, *a, *b;
} cdp_work;

static size_t work_tiles; // how many maxima each buffer holds (set in main)

static cdp_work work_of(void *work) {
  unsigned *w = (unsigned *)work;
  return (cdp_work){(int *)w, w + 1, w + 8, w + 8 + lt_next4(work_tiles)}; // a and b: 16-byte aligned
}

static void host_levels(const unsigned *in, unsigned *out, size_t n, void *work) {
  (void)out;
  const cdp_work w = work_of(work);
  unsigned *buf[2] = {w.a, w.b};
  for (int level = 0;; level++) {
    const size_t tiles = lt_tiles(n);
    unsigned *dst = tiles == 1 ? w.result : buf[level % 2];
    tile_max<<<(unsigned)tiles, LT_THREADS>>>(in, n, dst); // stream order: the next level sees these
    EX_CHECK(cudaGetLastError());
    if (tiles == 1) return;
    in = dst;
    n = tiles;
  }
}

static void cdp2_levels(const unsigned *in, unsigned *out, size_t n, void *work) {
  (void)out;
  const cdp_work w = work_of(work);
  cdp2_level<<<1, 1>>>(in, n, w.a, w.b, w.result, w.err);
  EX_CHECK(cudaGetLastError());
}

static const struct {
  const char *slug;
  lt_run_fn run;
} VARIANTS[] = {
    {"host_levels", host_levels},
    {"cdp2_levels", cdp2_levels},
};
#define N_VARIANTS (sizeof VARIANTS / sizeof *VARIANTS)

static const size_t SIZES[] = {1000, 1u << 20, (1u << 24) + 5, 1u << 26};
#define N_SIZES (sizeof SIZES / sizeof *SIZES)

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "a reduction by levels launched from the host and from the device");
  ex_print_gpu("lecture 05", "cdp2_tile_max");
  const size_t n_max = SIZES[N_SIZES - 1];
  work_tiles = lt_tiles(n_max);
  lt_data d = lt_data_make(n_max);
  const unsigned *in = d.in, *h_in = d.h_in;
  unsigned *want = d.want;
  void *work = ex_dev_zeros((2 * lt_next4(work_tiles) + 8) * sizeof(unsigned));
  const cdp_work w = work_of(work);

  printf("# tiles of %d; median of %d runs, each timed from the host's first launch to the last level's end\n", LT_TILE,
         LT_REPS);
  printf("n,variant,levels,median_us,ok\n");
  int failed = 0;
  for (size_t s = 0; s < N_SIZES; s++) {
    const size_t n = SIZES[s];
    lt_cpu_max_scan(h_in, want, n);
    for (size_t v = 0; v < N_VARIANTS; v++) {
      EX_CHECK(cudaMemset(w.result, 0xA5, sizeof(unsigned)));
      const float t = lt_time_us(VARIANTS[v].run, in, NULL, n, work);
      unsigned got;
      int err;
      EX_CHECK(cudaMemcpy(&got, w.result, sizeof got, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(&err, w.err, sizeof err, cudaMemcpyDeviceToHost));
      if (err) {
        fprintf(stderr, "%s:%d: a device-side launch failed: %s\n", __FILE__, __LINE__, cudaGetErrorString((cudaError_t)err));
        return 3;
      }
      const int ok = got == want[n - 1];
      failed |= !ok;
      printf("%zu,%s,%d,%.2f,%d\n", n, VARIANTS[v].slug, levels_of(n), t, ok);
    }
  }
  EX_CHECK(cudaFree(work));
  lt_data_free(&d);
  return failed;
}
