// large_buggy_gap.cu: lecture 05's "find the bugs" exercise. Each element's
// gap below the array's maximum, out[i] = max(in) - in[i], in one kernel,
// written with two mistakes that multi-block kernels are often written with.
// It is run on 1, 2, 2 and a bit, 3 and many tiles and checked against the CPU;
// the CSV says how many elements were wrong, and which came first. Read the
// kernel and its launch before you run it: the lecture's exercise asks what
// each mistake does, and on which sizes.
//
//   make lectures && build/lectures/large_buggy_gap     (needs a GPU; prints CSV)
#include "large_tile.h"

enum { RUNS = 20 }; // launches per size: a race need not show every time

// One block per tile (blockIdx.x), 256 threads, 4 elements each. *top is 0
// before the launch.
extern "C" __global__ void buggy_gap(const unsigned *in, unsigned *out, size_t n, unsigned *top) {
  const size_t tile = blockIdx.x;
  const uint4 v = lt_load(in, n, tile);
  const unsigned mine = lt_block_max(max(max(v.x, v.y), max(v.z, v.w)));
  if (threadIdx.x == 0) atomicMax(top, mine);
  // Every block has added its maximum once all threads have passed this
  // barrier, so *top is now the maximum of the whole array.
  __syncthreads();
  const unsigned m = *top;
  lt_store(out, n, tile, make_uint4(m - v.x, m - v.y, m - v.z, m - v.w));
}

// One block per tile of the input.
static void launch_gap(const unsigned *in, unsigned *out, size_t n, unsigned *top) {
  const unsigned blocks = (unsigned)(n / LT_TILE);
  buggy_gap<<<blocks, LT_THREADS>>>(in, out, n, top);
  EX_CHECK_LAUNCH();
}

static const size_t SIZES[] = {LT_TILE, 2 * LT_TILE, 2 * LT_TILE + 1, 3 * LT_TILE, 1u << 20, 1u << 24};
#define N_SIZES (sizeof SIZES / sizeof *SIZES)

// The right answer: every element's gap below the maximum of the first n.
static void cpu_gap(const unsigned *in, unsigned *want, size_t n) {
  unsigned m = 0;
  for (size_t i = 0; i < n; i++) m = in[i] > m ? in[i] : m;
  for (size_t i = 0; i < n; i++) want[i] = m - in[i];
}

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "where a buggy multi-block kernel goes wrong");
  ex_print_gpu("lecture 05", "large_buggy_gap");
  const size_t n_max = SIZES[N_SIZES - 1];
  lt_data d = lt_data_make(n_max);
  unsigned *out = (unsigned *)ex_dev_zeros(n_max * sizeof *out);
  unsigned *top = (unsigned *)ex_dev_zeros(sizeof *top);

  printf("# %d launches per size; *top and out are zeroed before each; a run is wrong if any element is\n", RUNS);
  printf("n,tiles,runs,wrong_runs,most_mismatches,first_bad\n");
  for (size_t s = 0; s < N_SIZES; s++) {
    const size_t n = SIZES[s];
    cpu_gap(d.h_in, d.want, n);
    int wrong = 0;
    size_t most = 0;
    long long first = -1;
    for (int r = 0; r < RUNS; r++) {
      EX_CHECK(cudaMemset(top, 0, sizeof *top));
      EX_CHECK(cudaMemset(out, 0, n * sizeof *out));
      launch_gap(d.in, out, n, top);
      long long first_bad;
      const size_t bad = lt_mismatches(out, d.want, n, &first_bad);
      if (bad) wrong++;
      if (bad > most) most = bad;
      if (first_bad >= 0 && (first < 0 || first_bad < first)) first = first_bad;
    }
    printf("%zu,%zu,%d,%d,%zu,%lld\n", n, lt_tiles(n), RUNS, wrong, most, first);
  }
  EX_CHECK(cudaFree(out));
  EX_CHECK(cudaFree(top));
  lt_data_free(&d);
  return 0;
}
