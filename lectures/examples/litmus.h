// litmus.h: the driver lecture 04's litmus tests share (litmus_mp.cu,
// litmus_sb.cu, litmus_lb.cu, litmus_corr.cu). A test file writes the two
// threads of its test, one kernel per variant, and a table of the variants;
// this file runs each variant for LIT_LAUNCHES x LIT_TRIALS trials and prints
// how often each outcome (r0, r1) was seen, as CSV.
//
// One trial is a thread T0 in block b and a thread T1 in block b + W (another
// SM), with two locations x and y of their own, each in its own 128-byte line,
// in two different arrays, both 0 at the start. The two threads first meet at
// a rendezvous (a per-trial counter: each adds 1 and waits, a bounded number
// of loads, until it reads 2), so that their test code runs at nearly the same
// time; a thread whose partner never came marks the trial skipped. Blocks
// beyond the 2W test blocks keep the memory system busy with scattered stores,
// which makes reorderings show more often where they are allowed. The outcome
// is tallied on the host after each launch.
#ifndef SCANLAB_LITMUS_H
#define SCANLAB_LITMUS_H

#include <cuda/atomic>

#include "example.h"

enum {
  LIT_TRIALS = 8192,      // trials per launch: one T0 and one T1 thread each
  LIT_LAUNCHES = 100,     // launches per variant: 819,200 trials
  LIT_THREADS = 256,      // threads per block
  LIT_LINE = 32,          // unsigned words per 128-byte line: one trial's location per line
  LIT_SPIN = 1 << 16,     // the most loads a thread makes while it waits (rendezvous or flag)
  LIT_STRESS_BLOCKS = 32, // blocks of scattered stores running beside the test
  LIT_STRESS_WORDS = 1 << 22,
  LIT_STRESS_ITERS = 256,
  LIT_OUTCOMES = 4,       // (r0, r1) in {0, 1}^2; index 2 * r0 + r1
};

// What a kernel gets: the locations, the registers each trial reports
// (r[2i] = r0, r[2i + 1] = r1), the rendezvous counters, the skip marks.
struct lit_args {
  unsigned *x, *y, *r, *go, *skip;
  unsigned *stress;
};

// One trial as one thread sees it: which thread it is (0 = T0, 1 = T1), the
// trial's two locations and its two result slots.
struct lit_trial {
  int role;
  unsigned *x, *y, *r;
};

// Scattered stores, one line apart, by the blocks that do not take part.
static __device__ void lit_stress(unsigned *stress) {
  unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < LIT_STRESS_ITERS; k++) {
    s = s * 1664525u + 1013904223u; // a linear congruential step: a new line each time
    ((volatile unsigned *)stress)[(s >> 8) % (LIT_STRESS_WORDS / LIT_LINE) * LIT_LINE] = k;
  }
}

// Sets up this thread's trial and waits for its partner. Returns 0 for a
// stress thread or when the partner did not come (the trial is marked
// skipped); 1 when the test code is to run now.
static __device__ __forceinline__ int lit_begin(lit_args a, lit_trial *t) {
  const int w = LIT_TRIALS / LIT_THREADS; // blocks per role
  if (blockIdx.x >= 2 * w) {
    lit_stress(a.stress);
    return 0;
  }
  t->role = blockIdx.x >= w;
  const int i = (blockIdx.x % w) * LIT_THREADS + threadIdx.x;
  t->x = a.x + (size_t)i * LIT_LINE;
  t->y = a.y + (size_t)i * LIT_LINE;
  t->r = a.r + 2 * i;
  // The rendezvous only brings the two threads together in time; it orders
  // nothing (a relaxed atomic and volatile loads, no fence), so it cannot
  // forbid an outcome the test code itself allows.
  unsigned seen = atomicAdd(a.go + i, 1u) + 1;
  for (int s = 0; seen < 2 && s < LIT_SPIN; s++) seen = *(volatile unsigned *)(a.go + i);
  if (seen < 2) {
    *(volatile unsigned *)(a.skip + i) = 1;
    return 0;
  }
  return 1;
}

// One variant of a test: its kernel and what the two models say about the
// outcome that sequential consistency forbids for this shape of the test.
struct lit_variant {
  const char *slug;
  void (*kernel)(lit_args);
  const char *sc_forbids;    // the (r0, r1) outcome SC forbids, "r10" say, or "none"
  const char *model_forbids; // whether the PTX memory model forbids it too: "yes" or "no"
};

struct lit_test {
  const char *example;  // "litmus_sb"
  const char *threads;  // the two threads, one line: "T0: x = 1; r0 = y | T1: y = 1; r1 = x"
  const lit_variant *variants;
  int n_variants;
};

static const char *const LIT_OUTCOME_NAMES[LIT_OUTCOMES] = {"r00", "r01", "r10", "r11"};

// Runs every variant of the test and prints the CSV; returns main's status.
static inline int lit_main(int argc, char **argv, const lit_test *t) {
  ex_no_arguments(argc, argv, "its litmus-test outcome counts");
  const cudaDeviceProp prop = ex_print_gpu("lecture 04", t->example);
  const int blocks = 2 * (LIT_TRIALS / LIT_THREADS) + LIT_STRESS_BLOCKS;
  for (int v = 0; v < t->n_variants; v++) { // a spinning thread must never wait for a block that cannot start
    int per_sm = 0;
    EX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, t->variants[v].kernel, LIT_THREADS, 0));
    if (blocks > per_sm * prop.multiProcessorCount) {
      fprintf(stderr, "%s: %s needs %d blocks on the GPU at once, %s holds %d\n", argv[0], t->variants[v].slug,
              blocks, prop.name, per_sm * prop.multiProcessorCount);
      return 3;
    }
  }
  const size_t words = (size_t)LIT_TRIALS * LIT_LINE;
  lit_args a;
  a.x = (unsigned *)ex_dev_zeros(words * sizeof(unsigned));
  a.y = (unsigned *)ex_dev_zeros(words * sizeof(unsigned));
  a.r = (unsigned *)ex_dev_zeros(2 * LIT_TRIALS * sizeof(unsigned));
  a.go = (unsigned *)ex_dev_zeros(LIT_TRIALS * sizeof(unsigned));
  a.skip = (unsigned *)ex_dev_zeros(LIT_TRIALS * sizeof(unsigned));
  a.stress = (unsigned *)ex_dev_zeros((size_t)LIT_STRESS_WORDS * sizeof(unsigned));
  static unsigned r[2 * LIT_TRIALS], skip[LIT_TRIALS];

  printf("# %d launches x %d trials per variant, %d stress blocks; %s\n", LIT_LAUNCHES, LIT_TRIALS,
         LIT_STRESS_BLOCKS, t->threads);
  printf("variant,trials,%s,%s,%s,%s,skipped,sc_forbids,ptx_model_forbids_it\n", LIT_OUTCOME_NAMES[0],
         LIT_OUTCOME_NAMES[1], LIT_OUTCOME_NAMES[2], LIT_OUTCOME_NAMES[3]);
  for (int v = 0; v < t->n_variants; v++) {
    unsigned long long counts[LIT_OUTCOMES] = {0}, skipped = 0;
    for (int l = 0; l < LIT_LAUNCHES; l++) {
      EX_CHECK(cudaMemset(a.x, 0, words * sizeof(unsigned)));
      EX_CHECK(cudaMemset(a.y, 0, words * sizeof(unsigned)));
      EX_CHECK(cudaMemset(a.r, 0, sizeof r));
      EX_CHECK(cudaMemset(a.go, 0, sizeof skip));
      EX_CHECK(cudaMemset(a.skip, 0, sizeof skip));
      t->variants[v].kernel<<<blocks, LIT_THREADS>>>(a);
      EX_CHECK_LAUNCH();
      EX_CHECK(cudaMemcpy(r, a.r, sizeof r, cudaMemcpyDeviceToHost));
      EX_CHECK(cudaMemcpy(skip, a.skip, sizeof skip, cudaMemcpyDeviceToHost));
      for (int i = 0; i < LIT_TRIALS; i++) {
        if (skip[i]) skipped++;
        else counts[2 * (r[2 * i] != 0) + (r[2 * i + 1] != 0)]++;
      }
    }
    printf("%s,%llu,%llu,%llu,%llu,%llu,%llu,%s,%s\n", t->variants[v].slug,
           counts[0] + counts[1] + counts[2] + counts[3] + skipped, counts[0], counts[1], counts[2], counts[3],
           skipped, t->variants[v].sc_forbids, t->variants[v].model_forbids);
  }
  EX_CHECK(cudaFree(a.x));
  EX_CHECK(cudaFree(a.y));
  EX_CHECK(cudaFree(a.r));
  EX_CHECK(cudaFree(a.go));
  EX_CHECK(cudaFree(a.skip));
  EX_CHECK(cudaFree(a.stress));
  return 0;
}

#endif
