/* stats.h: the timing statistics, shared by the runner (median of reps) and
 * the grader (minimum of medians), so both sides compute them one way. */
#ifndef SCANLAB_STATS_H
#define SCANLAB_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Median of v[0..n) (mean of the middle two when n is even). v is reordered.
 * Returns NaN when n <= 0. */
double stats_median(double *v, int n);
/* Smallest of v[0..n); NaN when n <= 0. */
double stats_min(const double *v, int n);
/* 1 when t is a usable time: finite and > 0. */
int stats_time_ok(double t);

#ifdef __cplusplus
}
#endif
#endif
