// large_buggy_scan.cu: lecture 05's "find the bugs" exercise. A multi-block
// running maximum (inclusive max-scan) in one kernel, written with two
// mistakes that multi-block scans are often written with. It is run on 1, 2,
// 3 and many tiles and checked against the CPU reference; the CSV says how
// many elements were wrong, and which came first. Read the kernel before you
// run it: the lecture's exercise asks what each bug does, and on which sizes.
//
//   make lectures && build/lectures/large_buggy_scan     (needs a GPU; prints CSV)
#include "large_tile.h"

enum { RUNS = 20 }; // launches per size: a race need not show every time

// One block per tile (blockIdx.x), 256 threads, 4 elements each.
extern "C" __global__ void buggy_max_scan(const unsigned *in, unsigned *out, size_t n, unsigned *tile_max) {
  const size_t tile = blockIdx.x;
  uint4 v = lt_load(in, n, tile);
  const unsigned mine = lt_block_scan(&v);
  if (threadIdx.x == 0) tile_max[tile] = mine;
  // All the tile maxima are written once every thread has passed this barrier,
  // so the block before us has published its maximum.
  __syncthreads();
  if (tile > 0) v = lt_max4(v, tile_max[tile - 1]); // the maximum of everything before this tile
  lt_store(out, n, tile, v);
}

static const size_t SIZES[] = {LT_TILE, 2 * LT_TILE, 2 * LT_TILE + 1, 3 * LT_TILE, 1u << 20, 1u << 24};
#define N_SIZES (sizeof SIZES / sizeof *SIZES)

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "where a buggy multi-block max-scan goes wrong");
  ex_print_gpu("lecture 05", "large_buggy_scan");
  const size_t n_max = SIZES[N_SIZES - 1];
  lt_data d = lt_data_make(n_max);
  const unsigned *in = d.in, *h_in = d.h_in;
  unsigned *want = d.want;
  unsigned *out = (unsigned *)ex_dev_zeros(n_max * sizeof *out);
  unsigned *tile_max = (unsigned *)ex_dev_zeros(lt_tiles(n_max) * sizeof *tile_max);

  printf("# %d launches per size; tile_max is zeroed before each; a run is wrong if any element is\n", RUNS);
  printf("n,tiles,runs,wrong_runs,most_mismatches,first_bad\n");
  for (size_t s = 0; s < N_SIZES; s++) {
    const size_t n = SIZES[s], tiles = lt_tiles(n);
    lt_cpu_max_scan(h_in, want, n);
    int wrong = 0;
    size_t most = 0;
    long long first = -1;
    for (int r = 0; r < RUNS; r++) {
      EX_CHECK(cudaMemset(tile_max, 0, tiles * sizeof *tile_max));
      buggy_max_scan<<<(unsigned)tiles, LT_THREADS>>>(in, out, n, tile_max);
      EX_CHECK_LAUNCH();
      long long first_bad;
      const size_t bad = lt_mismatches(out, want, n, &first_bad);
      if (bad) wrong++;
      if (bad > most) most = bad;
      if (first_bad >= 0 && (first < 0 || first_bad < first)) first = first_bad;
    }
    printf("%zu,%zu,%d,%d,%zu,%lld\n", n, tiles, RUNS, wrong, most, first);
  }
  EX_CHECK(cudaFree(out));
  EX_CHECK(cudaFree(tile_max));
  lt_data_free(&d);
  return 0;
}
