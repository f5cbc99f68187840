/* score.h: the scoring rules, the one place every kind's points come from.
 * The rules are stated once, in docs/grading.md, "The scoring formula"
 * (tests/test_stated_once.c keeps it the only statement); score.c implements
 * them, and grader/tests/test_score.c checks it against that section's example. */
#ifndef SCANLAB_SCORE_H
#define SCANLAB_SCORE_H

#include <stddef.h>

double score_fraction(double points, int passed, int total);
double score_perf(double points, double full_ratio, double t_student, double t_base, int correct);
/* ptx, metric, sanitizer: all the points or none. */
double score_all_or_nothing(double points, int ok);
/* 1 when min <= value <= max; a bound of -1 is absent. */
int score_in_bounds(double value, long min, long max);
/* "exactly 18", "3 to 5", "at least 3", "at most 3000", for a reason. */
void score_describe_bounds(long min, long max, char *out, size_t cap);
/* Rounds to hundredths, the precision every report shows. */
double score_round(double s);

#endif
