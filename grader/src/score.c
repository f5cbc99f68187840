/* score.c: the scoring rules of score.h. */
#include "score.h"

#include <math.h>
#include <stdio.h>

#include "stats.h"

double score_fraction(double points, int passed, int total) {
  if (total <= 0 || passed <= 0) return 0;
  if (passed > total) passed = total;
  return points * passed / total;
}

double score_perf(double points, double full_ratio, double t_student, double t_base, int correct) {
  if (!correct || !stats_time_ok(t_student) || !stats_time_ok(t_base) || !(full_ratio > 0)) return 0;
  double limit = full_ratio * t_base;
  if (t_student <= limit) return points;
  return points * limit / t_student;
}

double score_all_or_nothing(double points, int ok) { return ok ? points : 0; }

int score_in_bounds(double value, long min, long max) { return (min < 0 || value >= min) && (max < 0 || value <= max); }

void score_describe_bounds(long min, long max, char *out, size_t cap) {
  if (min >= 0 && max >= 0) snprintf(out, cap, min == max ? "exactly %ld" : "%ld to %ld", min, max);
  else if (min >= 0) snprintf(out, cap, "at least %ld", min);
  else if (max >= 0) snprintf(out, cap, "at most %ld", max);
  else snprintf(out, cap, "any count");
}

double score_round(double s) { return round(s * 100.0) / 100.0; }
