/* stats.c: median and minimum of timing samples. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double stats_median(double *v, int n) {
  if (n <= 0) return NAN;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double stats_min(const double *v, int n) {
  if (n <= 0) return NAN;
  double m = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] < m) m = v[i];
  return m;
}

int stats_time_ok(double t) { return isfinite(t) && t > 0.0; }
