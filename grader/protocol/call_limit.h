/* call_limit.h: how long the student's calls may take, from the reference's time.
 *
 * A broken submission is graded fast: a batch of the student's calls may take
 * at most CALL_LIMIT_FACTOR times the reference's batch of the same case (the
 * grader takes the reference's slowest call of the check times the largest
 * batch; the judge of a perf duel, the reference's first sample of each case),
 * and never less than CALL_LIMIT_FLOOR_S, which covers a call's upload and
 * download of up to 2 GiB. */
#ifndef SCANLAB_CALL_LIMIT_H
#define SCANLAB_CALL_LIMIT_H

#define CALL_LIMIT_FACTOR 100.0
#define CALL_LIMIT_FLOOR_S 3.0
#define CALL_LIMIT_MAX_BATCH 16

/* The limit in seconds for a batch whose reference took ref_ms. */
static inline double call_limit_s(double ref_ms) {
  double s = CALL_LIMIT_FACTOR * ref_ms / 1000.0;
  return s > CALL_LIMIT_FLOOR_S ? s : CALL_LIMIT_FLOOR_S;
}

#endif
