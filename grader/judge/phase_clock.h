/* phase_clock.h: the judge's clock on every step of a duel, and the ceiling.
 *
 * A sample's time is GO -> DONE. Around it are steps of course code that a
 * student's code could still try to work in, were it to reach them: RUN -> SET
 * (uploads, poisoning, settling, waiting for an idle device: a redirected
 * backend's settle could compute the batch there, before GO), DONE -> OUT (the
 * downloads: a patched timer could send DONE before the device is idle, and the
 * download waits for the work) and, in a duel, IDLE -> QUIET (the wait for an
 * idle device before the other side is timed: work still queued after OUT). The
 * judge times each on its own clock, for the student and the reference on the
 * same case and batch, and charges the student what the median of its
 * samples' steps (their sum) takes beyond the reference's, less the phase noise
 * (an honest runner's differs from the reference's by at most that), to every
 * sample.
 *
 * The ceiling: before the student's code runs (its runner started, stopped and
 * never called), the reference takes a few samples alone; its median in the duel
 * may exceed that by at most the ceiling noise. A reference slowed beyond it was
 * disturbed by something of the student's: the judge runs the case once more,
 * then fails it (judge_main.c).
 *
 * The noise figures were measured on an H100 (the reference against itself:
 * grader/tests/phase-noise.sh; docs/grading.md, threat model, "The phase charge:
 * its noise figures"); the ceiling's is wide (15 %, against the 3.3 % measured)
 * yet far below what a second context time-slicing with the reference (at least
 * doubling its time) costs it. */
#ifndef SCANLAB_PHASE_CLOCK_H
#define SCANLAB_PHASE_CLOCK_H

#include <stdio.h>

#include "wire.h"

/* An honest step may exceed the reference's by PHASE_NOISE_REL of the
 * reference's median step plus PHASE_NOISE_ABS_MS (per batch). Set from
 * phase-noise.sh on an H100, the reference against itself: at 4b3111d (every perf
 * case, 10 duels a case) its steps differed by at most 0.27 ms of 20 ms (1.3 %) on the
 * scans' batches and 0.34 ms of 3.1 ms on the frames'; the largest of them uses 52 % of
 * what these figures allow (c39d6ad, 3 duels a case: 58 %). make test checks that
 * they cover every table in docs/results/phase-noise-*.txt. With them, the solutions
 * of all five, graded three times with the charge added, scored full marks (4b3111d). */
#define PHASE_NOISE_REL 0.05
#define PHASE_NOISE_ABS_MS 0.5
/* The reference's duel median may exceed its median alone by CEILING_NOISE_REL
 * of it plus CEILING_NOISE_ABS_MS (per call): duel/solo measured 0.989-1.039. */
#define CEILING_NOISE_REL 0.15
#define CEILING_NOISE_ABS_MS 0.002
/* The reference's samples alone: untimed warm-ups, then timed ones (each the
 * case's batch). Three, no warm-up: their median leaves out one slow first
 * sample, and they cost a duel three of the reference's batches: estimated,
 * not measured, about 0.2 s for a batch of 8 calls of 2^24 ints (512 MiB up
 * and down, and the inputs made), tens of ms for a rendered frame; under 2 s over
 * the 13 duels of a grading of all five. */
#define SOLO_WARMUP 0
#define SOLO_REPS 3

typedef enum clock_phase { PHASE_PREP, PHASE_FETCH, PHASE_DRAIN, PHASE_COUNT } clock_phase;
/* "RUN->SET", "DONE->OUT", "IDLE->QUIET" */
extern const char *const judge_phase_steps[PHASE_COUNT];

/* One side's timed samples' steps, per batch: sample k's RUN -> SET and
 * DONE -> OUT, and the IDLE -> QUIET probes between it and the side's next
 * sample. Work a step leaves undone shows in a later step (work queued after
 * DONE is waited for by the next probe, or by the side's next RUN when its
 * next sample comes first), so a sample is judged by the sum of its steps. */
typedef struct phase_log {
  double *ms[PHASE_COUNT];
  int n, cap; /* samples begun */
} phase_log;

/* Room for cap samples. 0, or -1 when out of memory. */
int judge_phase_log_init(phase_log *l, int cap);
/* Sample n's RUN -> SET and DONE -> OUT: a new sample. */
void judge_phase_log_sample(phase_log *l, double prep_ms, double fetch_ms);
/* A probe of this side: added to its latest sample (none yet: not counted). */
void judge_phase_log_drain(phase_log *l, double ms);
void judge_phase_log_free(phase_log *l);
/* The median over l's samples of the sum of their steps (NaN without samples). */
double judge_phase_log_total_median(const phase_log *l);

/* What the student's steps took beyond the reference's (per batch). */
typedef struct phase_charge {
  double student_ms[PHASE_COUNT], reference_ms[PHASE_COUNT]; /* each step's median, for the story */
  double student_total_ms, reference_total_ms;               /* the medians of the samples' sums */
  double allowance_ms;                                       /* the noise allowed */
  double total_ms;                                           /* charged to each sample: max(0, student - reference - allowance) */
} phase_charge;

/* The charge of the student's samples' steps against the reference's, with
 * the noise rel * reference + abs_ms; nothing when either side has no sample. */
void judge_phase_charge_compute(const phase_log *student, const phase_log *reference, double rel, double abs_ms, phase_charge *c);

/* 1 when duel_ms (the reference's median per call in the duel) is above solo_ms
 * (its median alone) by more than rel * solo_ms + abs_ms. */
int judge_phase_ceiling_disturbed(double duel_ms, double solo_ms, double rel, double abs_ms);

/* 1 when both sides' calls have the same buffers (the variant aside): their
 * steps move the same bytes and can be compared. */
int judge_phase_comparable(const wire_case *a, const wire_case *b);

/* "REL ABS_MS" (SCANLAB_PHASE_NOISE, SCANLAB_CEILING_NOISE): a fraction in
 * [0, 10] and milliseconds in [0, 10000]. 0, or -1 when text is not that. */
int judge_phase_noise_parse(const char *text, double *rel, double *abs_ms);

/* SCANLAB_JUDGE_PHASES: one line on f for one side of a duel's case, per batch:
 * each step's median [range], the median of the samples' step sums, the
 * window's median [range] (ms: the side's per-call sample times) and its median
 * alone (solo_ms per call; 0 for the student). grader/tests/phase-noise.sh
 * reads it. */
void judge_phase_report(FILE *f, const char *assignment, const char *case_name, const char *who, const phase_log *l,
                        const double *ms, int reps, int batch, double solo_ms);
/* One line on f: what the student was charged and why, step by step. */
void judge_phase_describe(FILE *f, const char *assignment, const char *case_name, const phase_charge *c);

/* The median of v[0..n) without reordering v (NaN when n <= 0, or out of memory). */
double judge_phase_median(const double *v, int n);
/* The smallest and largest of v[0..n) (NaN when n <= 0). */
void judge_phase_range(const double *v, int n, double *lo, double *hi);

#endif
