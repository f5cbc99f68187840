/* result.h: the runner-to-grader result protocol.
 *
 * Each finished case is one line on the result channel (the file descriptor the
 * grader names with --result-fd; stdout when run by hand):
 *
 *   result case=n1000 variant=shfl n=1000 seed=7 ok=1 checked=1 median_ms=0.0712 min_ms=0.07 reps=20
 *          verified=20 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0
 *          nonfinite=0 work_bytes=0 overhead_ms=0.004 floor_ms=0 too_fast=0 charged_ms=0 solo_ms=0
 *
 * Every timed rep is verified (`verified` of them; `bad_reps` were wrong). The
 * comparison fields describe the first wrong rep, or the last rep when none was
 * wrong: elements that differ, the first one (and its pixel for an image), the
 * largest error among compared elements, how many were masked (not compared),
 * and how many were not finite (always wrong). ok=1 means checked, no bad rep.
 * The times are the judge's clock (GO -> DONE, per call). overhead_ms is what an
 * empty window costs a sample (the protocol and the wait for an idle device),
 * per call of a batch; in a perf duel with a floor, floor_ms is the time below
 * which a call cannot be (a fraction of the reference's device copy of its
 * unavoidable bytes) and too_fast counts the timed samples below it. In a duel,
 * the student's charged_ms is what its steps around the window (RUN -> SET,
 * DONE -> OUT, IDLE -> QUIET) took beyond the reference's, per call, already
 * added to each of its samples; the reference's solo_ms is its median per call
 * taken alone, before the student's code ran, which its duel median must agree
 * with (the ceiling). These five are optional to the parser (0 when absent).
 *
 * The runner formats it with result_format and the grader reads it back with
 * result_parse, so the two can never disagree about the syntax. */
#ifndef SCANLAB_RESULT_H
#define SCANLAB_RESULT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RESULT_NAME_MAX 64
#define RESULT_LINE_MAX 512

typedef struct result_line {
  char case_name[RESULT_NAME_MAX];
  char variant[RESULT_NAME_MAX];
  uint64_t n;
  uint64_t seed;
  int ok;              /* 1: the output matched the CPU reference (or no --check) */
  int checked;         /* 1: the output was compared with the CPU reference */
  double median_ms;    /* median of the timed reps */
  double min_ms;
  int reps;
  int verified;        /* timed reps whose output was compared (0 without --check) */
  int bad_reps;        /* of those, how many were wrong */
  uint64_t mismatches; /* elements that differ from the reference (in the first wrong rep) */
  int64_t first_bad;   /* index of the first one, -1 when none */
  int64_t first_x, first_y; /* its pixel, for an image output; -1 otherwise */
  double max_err;      /* largest |got - expected| over compared finite elements (0 for exact types) */
  uint64_t masked;     /* elements not compared (the reference's mask) */
  uint64_t nonfinite;  /* NaN or infinite elements: each one is a mismatch */
  uint64_t work_bytes; /* device workspace the runner allocated for the student */
  double overhead_ms;  /* an empty window's cost, per call of a batch */
  double floor_ms;     /* the memory system's limit for one call (0: none) */
  int too_fast;        /* timed samples below floor_ms: the timing is not trusted */
  double charged_ms;   /* a duel's student: its phases' excess over the reference's, per call, in its times */
  double solo_ms;      /* a duel's reference: its median per call alone (the ceiling's figure) */
} result_line;

/* Writes the line, with its trailing newline, into buf. Returns its length, or
 * -1 when it does not fit. */
int result_format(char *buf, size_t cap, const result_line *r);

/* Parses one line. Returns 0, or -1 with a one-line reason in err. Rejects
 * missing or repeated keys, malformed numbers, and times that are not finite
 * and positive. Unknown keys are allowed (later protocol versions may add some). */
int result_parse(const char *line, result_line *r, char *err, size_t errcap);

/* Parses a plain decimal unsigned integer (no sign, no spaces, no junk).
 * Returns 0, or -1 when s is not one or overflows. */
int result_parse_u64(const char *s, uint64_t *out);

/* 1 when s is a usable case or variant name: 1..63 of [A-Za-z0-9_.^+-]. */
int result_name_ok(const char *s);

#ifdef __cplusplus
}
#endif
#endif
