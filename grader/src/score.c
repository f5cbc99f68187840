/* score.c: the scoring formula of score.h. */
#include "score.h"

#include <math.h>

#include "stats.h"

double score_fraction(double points, int passed, int total) {
  if (total <= 0 || passed <= 0) return 0;
  if (passed > total) passed = total;
  return points * passed / total;
}

double score_perf(double points, double full_ratio, double t_student, double t_ref, int correct) {
  if (!correct || !stats_time_ok(t_student) || !stats_time_ok(t_ref) || !(full_ratio > 0)) return 0;
  double limit = full_ratio * t_ref;
  if (t_student <= limit) return points;
  return points * limit / t_student;
}

double score_round(double s) { return round(s * 100.0) / 100.0; }
