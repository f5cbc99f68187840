/* bench_plan.h: how many samples of how many calls a --bench row takes.
 *
 * A bench case (say n2^24: 12 samples of 4 calls) is also timed at other
 * sizes (2^20 .. 2^28). Above the case's size its plan is scaled down by the
 * size ratio, so that a sample holds no more elements than the case's does
 * (1 call at 2^26 and 2^28, not 4: the shared memory of 4 calls of 2^28 ints
 * in and out is 8 GiB) and the samples shrink too, to at least
 * BENCH_MIN_SAMPLES: a call that long varies little from one sample to the
 * next, and every call is still made and checked on the CPU. Samples asked
 * for (--reps, or the spec's bench_reps) are kept as asked. */
#ifndef SCANLAB_BENCH_PLAN_H
#define SCANLAB_BENCH_PLAN_H

#include <stdint.h>

#define BENCH_MIN_SAMPLES 5

static inline void bench_plan(uint64_t case_n, int case_batch, int case_reps, int reps_fixed, uint64_t n, int *batch,
                              int *reps) {
  *batch = case_batch > 0 ? case_batch : 1;
  *reps = case_reps;
  if (!case_n || n <= case_n) return;
  double f = (double)case_n / (double)n;
  int b = (int)(*batch * f + 0.5); /* rounded: 2^24 + 1 keeps the plan of 2^24 */
  *batch = b > 1 ? b : 1;
  if (reps_fixed) return;
  int r = (int)(case_reps * f + 0.5);
  int floor = case_reps < BENCH_MIN_SAMPLES ? case_reps : BENCH_MIN_SAMPLES;
  *reps = r > floor ? r : floor;
}

#endif
