// warp_ballot.cu: lecture 06's ballot, lane mask and popcount. Keep the
// indices of the keys below a threshold with one atomic a warp instead of one
// a key: a ballot puts the warp's 32 flags in one word, a popcount of the
// word under a lane mask numbers each lane's kept key among the warp's, and
// one lane takes the warp's slots from the counter. Within a warp the order
// is the input's; between warps it is whatever order the atomics ran in.
//
// The CSV says, for each share of keys kept: how many, how many atomics the
// warps took (one per warp with a kept key, against one per kept key for
// lecture 06's compact_atomic), whether every warp's indices came out
// together and in input order (in_warp_order), and whether the whole output
// did (in_order: it need not).
//
//   make lectures && build/lectures/warp_ballot     (needs a GPU; prints CSV)
#include "example.h"

enum { THREADS = 256, WARP = 32 };
#define FULL_MASK 0xffffffffu
static const size_t N = (size_t)1 << 20;
static const unsigned KEEP_PERCENT[] = {10, 50, 90};

// Every lane of a warp runs the ballot and the shuffle: lanes past n take
// part with a flag of 0 (n need not be a multiple of 32).
extern "C" __global__ void keep_warp_aggregated(const unsigned *in, size_t n, unsigned below, unsigned *count,
                                                unsigned *out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % WARP;
  const bool keep = i < n && in[i] < below;
  const unsigned kept = __ballot_sync(FULL_MASK, keep); // bit l: lane l keeps its key
  const unsigned lanes_below = (1u << lane) - 1u;       // the lane mask of the lanes before this one
  const unsigned rank = __popc(kept & lanes_below);     // kept keys of those lanes: an exclusive scan of the flags
  unsigned base = 0;
  if (lane == 0 && kept) base = atomicAdd(count, (unsigned)__popc(kept)); // the warp's slots, one atomic
  base = __shfl_sync(FULL_MASK, base, 0);
  if (keep) out[base + rank] = (unsigned)i;
}

// Whether the output indices are the kept ones (each once), each warp's
// together and increasing, and all of them increasing.
static void check(const unsigned *h_in, unsigned below, const unsigned *got, size_t count, size_t *want_count,
                  int *in_warp_order, int *in_order) {
  unsigned char *seen = (unsigned char *)calloc(N, 1), *warp_done = (unsigned char *)calloc(N / WARP, 1);
  if (!seen || !warp_done) {
    fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
    exit(1);
  }
  size_t want = 0;
  for (size_t i = 0; i < N; i++) want += h_in[i] < below;
  *want_count = want;
  int right = count == want, warp_order = 1, order = 1;
  for (size_t p = 0; right && p < count; p++) {
    const unsigned i = got[p];
    right = i < N && h_in[i] < below && !seen[i];
    if (!right) break;
    seen[i] = 1;
    if (p == 0) continue;
    const unsigned w = i / WARP, before = got[p - 1] / WARP;
    if (i < got[p - 1]) order = 0;
    if (w == before && i < got[p - 1]) warp_order = 0; // out of order inside the warp
    if (w != before) {
      if (warp_done[w]) warp_order = 0; // the warp's indices were split
      warp_done[before] = 1;
    }
  }
  free(seen);
  free(warp_done);
  if (!right) {
    fprintf(stderr, "%s:%d: keep_warp_aggregated kept %zu indices, want %zu, or kept a wrong one\n", __FILE__,
            __LINE__, count, want);
    exit(1);
  }
  *in_warp_order = warp_order;
  *in_order = order;
}

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "what a warp-aggregated compaction keeps, and in which order");
  ex_print_gpu("lecture 06", "warp_ballot");
  unsigned *h_in = (unsigned *)malloc(N * sizeof *h_in), *h_out = (unsigned *)malloc(N * sizeof *h_out);
  if (!h_in || !h_out) {
    fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
    return 1;
  }
  unsigned x = 12345u;
  for (size_t i = 0; i < N; i++) h_in[i] = x = x * 1664525u + 1013904223u; // uniform over 32 bits
  unsigned *in = (unsigned *)ex_dev_zeros(N * sizeof *in), *out = (unsigned *)ex_dev_zeros(N * sizeof *out);
  unsigned *count = (unsigned *)ex_dev_zeros(sizeof *count);
  EX_CHECK(cudaMemcpy(in, h_in, N * sizeof *in, cudaMemcpyHostToDevice));
  printf("keep_percent,n,kept,warps,atomics,atomics_one_per_key,in_warp_order,in_order\n");
  for (size_t k = 0; k < sizeof KEEP_PERCENT / sizeof *KEEP_PERCENT; k++) {
    const unsigned below = (unsigned)((double)KEEP_PERCENT[k] / 100.0 * 4294967296.0);
    EX_CHECK(cudaMemset(count, 0, sizeof *count));
    keep_warp_aggregated<<<(unsigned)((N + THREADS - 1) / THREADS), THREADS>>>(in, N, below, count, out);
    EX_CHECK_LAUNCH();
    unsigned h_count = 0;
    EX_CHECK(cudaMemcpy(&h_count, count, sizeof h_count, cudaMemcpyDeviceToHost));
    EX_CHECK(cudaMemcpy(h_out, out, h_count * sizeof *h_out, cudaMemcpyDeviceToHost));
    size_t want, warps_with_keys = 0;
    int in_warp_order, in_order;
    check(h_in, below, h_out, h_count, &want, &in_warp_order, &in_order);
    for (size_t w = 0; w < N / WARP; w++) {
      int any = 0;
      for (size_t l = 0; l < WARP; l++) any |= h_in[w * WARP + l] < below;
      warps_with_keys += any;
    }
    printf("%u,%zu,%zu,%zu,%zu,%zu,%d,%d\n", KEEP_PERCENT[k], N, want, N / WARP, warps_with_keys, want, in_warp_order,
           in_order);
  }
  EX_CHECK(cudaFree(in));
  EX_CHECK(cudaFree(out));
  EX_CHECK(cudaFree(count));
  free(h_in);
  free(h_out);
  return 0;
}
