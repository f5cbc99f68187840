/* verdict.h: what one call's outputs looked like (a spec_verdict), and how the
 * verdicts of chunks checked on several threads add up.
 *
 * The bottom of the judge's comparing: it depends on nothing of the judge, so
 * both the thread loops (parallel.h) and the comparison (spec.h, buffer_compare.c) use
 * it without using each other's headers. */
#ifndef SCANLAB_VERDICT_H
#define SCANLAB_VERDICT_H

#include <stdint.h>

/* What one call's outputs looked like. */
typedef struct spec_verdict {
  uint64_t mismatches, masked, nonfinite;
  int64_t first_bad, first_x, first_y; /* -1 when none */
  double max_err;
} spec_verdict;

/* Starts a verdict with nothing wrong. */
void judge_verdict_init(spec_verdict *v);
/* Adds chunk's counts into v, keeps the largest error, and takes chunk's
 * first_bad (with its pixel) when v has none: merging chunks in index order
 * keeps the earliest wrong element. */
void judge_verdict_merge(spec_verdict *v, const spec_verdict *chunk);

#endif
