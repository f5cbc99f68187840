// large_ticket.cu: lecture 05's single-pass patterns that need no look-back.
//
//   ticket_max           the maximum of n unsigned ints in one launch: each block
//                        reduces its tile, stores its partial, fences and takes
//                        a ticket from an atomic counter; the block that draws
//                        the last ticket knows every partial is there, reduces
//                        them and resets the counter for the next launch.
//   broadcast_backoff    out[i] = max - in[i] in one launch: the same ticket,
//                        then the last block publishes the maximum with a
//                        release store of a generation number, and every block
//                        waits for it with acquire loads, sleeping between them
//                        (__nanosleep, doubling from 32 ns to 1 us). Every block
//                        waits for every other, so all must be resident at once:
//                        a cooperative launch of at most what the GPU holds.
//   broadcast_hot_spin   the same, polling without sleeping.
//   copy                 a device-to-device copy of the same bytes, to compare.
//
// Each is checked against the CPU reference; every wait is bounded (a block
// that waits too long gives up and says so). Prints CSV.
//
//   make lectures && build/lectures/large_ticket     (needs a GPU; prints CSV)
#include "large_tile.h"
#include "scope_ops.h"

enum {
  SPIN_LIMIT = 1 << 22, // polls of the flag before a block gives up (a bug, not a wait)
  SLEEP_MIN_NS = 32,
  SLEEP_MAX_NS = 1024,
};

// The workspace: the counters first, then one partial per block.
typedef struct ticket_work {
  unsigned *ticket, *flag, *stuck, *result, *partial;
} ticket_work;

static ticket_work work_of(void *work) {
  unsigned *w = (unsigned *)work;
  return (ticket_work){w, w + 1, w + 2, w + 3, w + 8};
}

// Stores this block's partial and takes a ticket; returns, to every thread of
// the block, whether it drew the last one. Then (and only then) it may read
// every partial: the last block reduces them into *result and resets the ticket.
static __device__ bool ticket_last(unsigned mine, ticket_work w) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    w.partial[blockIdx.x] = mine;
    __threadfence(); // fence.sc.gpu: the partial is visible at GPU scope before the ticket is taken
    last = atomicAdd(w.ticket, 1u) == gridDim.x - 1;
    __threadfence(); // and the partials read below are read after the ticket that says they are all there
  }
  __syncthreads(); // `last`, and thread 0's view of the partials, for the whole block
  if (!last) return false;
  unsigned m = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) m = max(m, w.partial[b]);
  m = lt_block_max(m);
  if (threadIdx.x == 0) {
    *w.result = m;
    *w.ticket = 0; // every block has drawn: the next launch starts from 0 without a memset
  }
  return true;
}

// One block per tile. Reads n ints, writes one.
extern "C" __global__ void ticket_max(const unsigned *in, size_t n, ticket_work w) {
  ticket_last(lt_tile_max(in, n, blockIdx.x), w);
}

// A grid of resident blocks; block b takes tiles b, b + gridDim.x, ... Reads n
// ints twice (the second time mostly from L2 at small n), writes n.
extern "C" __global__ void broadcast_distance(const unsigned *in, unsigned *out, size_t n, ticket_work w, unsigned generation,
                                   int backoff) {
  __shared__ unsigned total_sh;
  const size_t tiles = (n + LT_TILE - 1) / LT_TILE;
  unsigned m = 0;
  for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint4 v = lt_load(in, n, t);
    m = max(m, max(max(v.x, v.y), max(v.z, v.w)));
  }
  if (ticket_last(lt_block_max(m), w) && threadIdx.x == 0)
    st_release_gpu(w.flag, generation); // release: *w.result is stored before the flag
  if (threadIdx.x == 0) {
    unsigned ns = SLEEP_MIN_NS;
    int polls = 0;
    // acquire: the load of *w.result below is made after the flag is seen
#pragma unroll 1
    while (ld_acquire_gpu(w.flag) != generation) {
      if (++polls == SPIN_LIMIT) {
        atomicExch(w.stuck, 1u);
        break;
      }
      if (backoff) {
        __nanosleep(ns); // give the memory system (and the last block) room; a hint, not a promise
        ns = min(2 * ns, (unsigned)SLEEP_MAX_NS);
      }
    }
    total_sh = polls == SPIN_LIMIT ? 0 : *w.result;
  }
  __syncthreads(); // total_sh, and thread 0's acquire, for the whole block
  for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint4 v = lt_load(in, n, t);
    lt_store(out, n, t, make_uint4(total_sh - v.x, total_sh - v.y, total_sh - v.z, total_sh - v.w));
  }
}

// ---------------------------------------------------------------- host

static void run_ticket_max(const unsigned *in, unsigned *out, size_t n, void *work) {
  (void)out;
  ticket_max<<<(unsigned)lt_tiles(n), LT_THREADS>>>(in, n, work_of(work));
  EX_CHECK(cudaGetLastError());
}

static int resident_blocks; // how many blocks of broadcast_distance the GPU holds at once (set in main)
static unsigned generation; // a new value per launch, so the flag needs no reset

static void broadcast(const unsigned *in, unsigned *out, size_t n, void *work, int backoff) {
  ticket_work w = work_of(work);
  const size_t tiles = lt_tiles(n);
  const unsigned blocks = (unsigned)(tiles < (size_t)resident_blocks ? tiles : (size_t)resident_blocks);
  generation++;
  void *args[] = {&in, &out, &n, &w, &generation, &backoff};
  // cooperative: launched only if every block can be resident at once, else an error
  EX_CHECK(cudaLaunchCooperativeKernel((const void *)broadcast_distance, blocks, LT_THREADS, args, 0, 0));
}
static void broadcast_backoff(const unsigned *in, unsigned *out, size_t n, void *work) { broadcast(in, out, n, work, 1); }
static void broadcast_hot_spin(const unsigned *in, unsigned *out, size_t n, void *work) { broadcast(in, out, n, work, 0); }

// The one result in the workspace against the CPU's maximum.
static size_t check_result(const lt_data *d, const unsigned *out, size_t n, void *work, long long *first_bad) {
  (void)out;
  unsigned got;
  EX_CHECK(cudaMemcpy(&got, work_of(work).result, sizeof got, cudaMemcpyDeviceToHost));
  *first_bad = got == d->want[n - 1] ? -1 : 0; // the running maximum's last element is the maximum
  return got != d->want[n - 1];
}

// out[i] against max - in[i].
static size_t check_distance(const lt_data *d, const unsigned *out, size_t n, void *work, long long *first_bad) {
  (void)work;
  unsigned *dist = (unsigned *)malloc(n * sizeof *dist);
  if (!dist) {
    fprintf(stderr, "%s:%d: out of host memory for %zu elements\n", __FILE__, __LINE__, n);
    exit(1);
  }
  for (size_t i = 0; i < n; i++) dist[i] = d->want[n - 1] - d->h_in[i];
  const size_t bad = lt_mismatches(out, dist, n, first_bad);
  free(dist);
  return bad;
}

static const lt_variant VARIANTS[] = {
    {"copy", lt_copy, lt_check_nothing}, // first: the others are compared with it
    {"ticket_max", run_ticket_max, check_result},
    {"broadcast_backoff", broadcast_backoff, check_distance},
    {"broadcast_hot_spin", broadcast_hot_spin, check_distance},
};
#define N_VARIANTS (sizeof VARIANTS / sizeof *VARIANTS)

static const size_t SIZES[] = {1u << 16, 1u << 20, 1u << 24};
#define N_SIZES (sizeof SIZES / sizeof *SIZES)

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "a ticket reduction and a broadcast against a copy");
  const cudaDeviceProp prop = ex_print_gpu("lecture 05", "large_ticket");
  int per_sm = 0, coop = 0;
  EX_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  if (!coop) {
    fprintf(stderr, "%s:%d: this GPU has no cooperative launch, which the broadcast needs\n", __FILE__, __LINE__);
    return 3;
  }
  EX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, broadcast_distance, LT_THREADS, 0));
  resident_blocks = per_sm * prop.multiProcessorCount;
  const size_t n_max = SIZES[N_SIZES - 1], tiles_max = lt_tiles(n_max);
  lt_data d = lt_data_make(n_max);
  unsigned *out = (unsigned *)ex_dev_zeros(n_max * sizeof *out);
  void *work = ex_dev_zeros((tiles_max + 8) * sizeof(unsigned));

  printf("# %d threads per block; broadcast grid: %d resident blocks (%d per SM); median of %d runs\n", LT_THREADS,
         resident_blocks, per_sm, LT_REPS);
  const int failed = lt_sweep(SIZES, N_SIZES, VARIANTS, N_VARIANTS, &d, out, work);
  unsigned stuck = 0;
  EX_CHECK(cudaMemcpy(&stuck, work_of(work).stuck, sizeof stuck, cudaMemcpyDeviceToHost));
  if (stuck) fprintf(stderr, "%s:%d: a block polled the flag %d times and gave up\n", __FILE__, __LINE__, SPIN_LIMIT);
  EX_CHECK(cudaFree(out));
  EX_CHECK(cudaFree(work));
  lt_data_free(&d);
  return failed || stuck ? 1 : 0;
}
