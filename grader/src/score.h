/* score.h: the one scoring formula (docs/grading.md states the same).
 *
 *   correct, model:      points * passed / total      (each case counts the same)
 *   ptx, metric:         points if min <= count (or metric value) <= max, else 0
 *   sanitizer:           points if the tool reports nothing and every case ran, else 0
 *   perf:                0 when the student's run is incorrect or its time unusable;
 *                        points when T <= full_ratio * Tref;
 *                        points * full_ratio * Tref / T when slower.
 * T and Tref are each side's minimum over runs of the harness's median of reps. */
#ifndef SCANLAB_SCORE_H
#define SCANLAB_SCORE_H

double score_fraction(double points, int passed, int total);
double score_perf(double points, double full_ratio, double t_student, double t_ref, int correct);
/* Rounds to hundredths, the precision every report shows. */
double score_round(double s);

#endif
