/* runs.h: run a runner (student, reference or model) on a check's
 * cases as a child process and read its result channel; judge its result lines;
 * read the reference's `--list`. */
#ifndef SCANLAB_RUNS_H
#define SCANLAB_RUNS_H

#include <stdint.h>
#include <stdio.h>

#include "call_limit.h"
#include "check_types.h"
#include "proc.h"
#include "result.h"

#define RUN_MAX_LINES (CONF_MAX_CASES * 2)
/* The baseline every runner has: a device-to-device copy of the case's bytes, unchecked. */
#define RUN_COPY_BASELINE "copy_d2d"

typedef struct run_record {
  proc_result p;
  result_line lines[RUN_MAX_LINES];
  int n_lines;
  char channel_error[200]; /* the first unparsable line on the result channel */
  char failure[320];       /* one line when the process did not exit 0 */
  int versus_failed;       /* a duel's reference failed (the judge's exit 4), not the student */
  int student_stopped;     /* a duel's reference side (run_split_duel): the student's runner failed, so
                              the cases after it have no reference line either */
} run_record;

typedef struct run_args {
  const char *bin;
  const char *variant;     /* NULL: the check's */
  uint64_t seed;
  int reps;                /* 0: the case's default */
  char *const *prefix;     /* a tool and its options, NULL-terminated; NULL: none */
  const char *save_failed; /* --save-failed DIR; NULL: none */
  int direct;              /* run bin itself, not the judge on it (a program that checks its own work) */
  double call_limit_s;     /* the judge's limit on one batch of calls (0: from the check's timeout) */
  int profiled;            /* the tool is a profiler (ncu) whose library writes files in the runner: judge --profiled */
  int batch;               /* calls per sample (0: the case's); correctness and tools use 1 */
  const char *versus;      /* a perf duel (judge --versus): the reference, whose line comes first; NULL: none */
  FILE *story;             /* the check's story: with SCANLAB_JUDGE_PROFILE set, the judge's profile lines go there */
  const char *versus_variant;
  double floor;            /* with versus: judge --floor (0: none) */
} run_args;

/* The limit for the student's calls from the reference's run of the same check (call_limit.h). */
double run_call_limit(const run_record *ref);

/* Runs the runner on the check's cases (--check, results on descriptor 3).
 * Never fails: whatever the child does is in the returned run. Free with free(). */
run_record *run_cases(const assignment_ctx *a, const check_conf *c, const run_args *args);

/* A duel's run split in two: the judge writes the reference's line of a case
 * before the student's, so a case's first line goes to *ref, the rest to
 * *student. The
 * student keeps the run's failure; the reference keeps it only when it was the
 * reference's (versus_failed), and otherwise marks student_stopped. */
void run_split_duel(const run_record *h, run_record *ref, run_record *student);

/* The first result line for case_name, or NULL. */
const result_line *run_find(const run_record *h, const char *case_name);

/* What a case's result line must carry to be judged correct. */
typedef struct run_want {
  const char *variant;
  const result_line *ref;  /* the reference's line for the case: its n and seed (NULL: not compared) */
  uint64_t seed_offset;    /* the run's seed is the reference's plus this (repeat) */
  int allow_unchecked;     /* the copy baseline: checked=0 with ok=1 is fine */
} run_want;

/* Judges one case of a run. Returns 1 when correct, else 0 with a reason a
 * student can act on in why ("wrong in 3 of 20 timed reps; first wrong rep: ..."). */
int run_verdict(const run_record *h, const char *case_name, const run_want *w, char *why, size_t cap);

/* Checks that a reference (or baseline) run reported every case of the check
 * correctly for variant and exited 0; else says why not. Only the copy
 * baseline may report checked=0 (it has nothing to check). */
int run_reference_sane(const run_record *h, const check_conf *c, const char *variant, char *why, size_t cap);

/* Reads a runner's `--list` (docs/grading.md, the runner protocol): the first
 * line must be exactly "assignment NAME"; the slugs of its variant and baseline
 * lines go into slugs (up to max). Returns the number of slugs, or -1 with why. */
int run_list_parse(const char *text, const char *name, char slugs[][CONF_NAME_MAX], int max, char *why, size_t cap);

#endif
