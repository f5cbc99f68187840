/* score.h: the scoring rules, the one place every kind's points come from
 * (docs/grading.md states the same).
 *
 *   correct, model:      points * passed / total      (each case counts the same)
 *   ptx, metric:         points if min <= count (or metric value) <= max, else 0
 *   sanitizer:           points if the tool reports nothing and every case ran, else 0
 *   perf:                0 when the student's run is incorrect or its time unusable;
 *                        points when T <= full_ratio * Tbase;
 *                        points * full_ratio * Tbase / T when slower.
 * T and Tbase are each side's minimum over runs of the runner's median of reps;
 * Tbase is the baseline's (the reference's run of the same variant unless the
 * check names another). Every score is rounded to hundredths. */
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
