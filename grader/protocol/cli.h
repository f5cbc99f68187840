/* cli.h: the judge's command line (docs/grading.md, "The runner protocol"), parsed strictly.
 *
 *   --assignment NAME       the assignment whose spec judges the run (its folder name, NN-name)
 *   --runner PATH           the runner: the untrusted program with the student's code
 *   --call-timeout S        seconds one batch of calls may take before the runner is killed (default 20)
 *   -- CMD...               a tool that starts the runner (compute-sanitizer ...): the runner's path is appended
 *   --profiled              the tool is a profiler (ncu) whose library opens files inside the runner: the runner's
 *                           sandbox then lets files be read, and written only in a fresh folder the judge makes
 *                           (Landlock: grader/runner/profiling.h); the grader's metric checks alone
 *   --versus PATH           a perf duel: a second runner (the reference), whose samples alternate with the
 *                           runner's on the same inputs; its result line comes first (docs/grading.md)
 *   --versus-variant SLUG   the second runner's variant: one of its variants or baselines, or copy_d2d
 *                           (default: --variant)
 *   --floor F               a perf duel's floor: before each case the --versus runner times a device copy of
 *                           the call's unavoidable bytes; a sample of the runner's below F times that copy is
 *                           not credited (too_fast in its result line)
 *
 *   --case NAME[,NAME...]   named cases from the assignment's case table (repeatable)
 *   --variant SLUG          which version of the student's code to run
 *   --n N --seed S          an ad-hoc input (N may be written 2^K, 2^K+D or 2^K-D)
 *   --reps R --warmup W     timed repetitions, untimed warm-up runs
 *   --batch B               calls per sample, back to back (default: the case's)
 *   --check                 accepted for older scripts: every call is always compared
 *   --out FILE              write the last output: raw little-endian, or for an image PPM/PNG by the extension
 *   --save-failed DIR       on a wrong case with an image output, write DIR/CASE.{student,expected,diff}.png
 *   --result-fd N           where result lines go (default 1, stdout)
 *   --list                  print the variants and cases, then exit
 *   --bench                 time every variant and a device-to-device copy of the same bytes; print a table
 *
 * Any error gives one line in err and status 2: the runner prints it and exits 2. */
#ifndef SCANLAB_CLI_H
#define SCANLAB_CLI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_CASES 64

typedef struct cli_opts {
  const char *cases[CLI_MAX_CASES];
  int n_cases;
  const char *variant; /* NULL: the assignment's default */
  int have_n, have_seed;
  uint64_t n, seed;
  int reps;   /* -1: the case's default */
  int warmup; /* -1: the runner default */
  int batch;  /* 0: the case's */
  int check;
  const char *out;
  const char *save_failed;
  int result_fd;
  int list, help, bench, profiled;
  const char *assignment;
  const char *runner;
  const char *versus;         /* a perf duel's second runner (NULL: none) */
  const char *versus_variant; /* its variant (NULL: --variant) */
  double call_timeout_s; /* 0: the default */
  double floor;          /* --floor: 0 none */
  char **prefix;         /* after --: the tool that starts the runner (NULL: none) */
  int n_prefix;
  char case_buf[1024]; /* storage for the split --case lists */
} cli_opts;

/* Returns 0, or 2 with a one-line reason in err. */
int cli_parse(int argc, char **argv, cli_opts *o, char *err, size_t errcap);

/* Parses an unsigned count: decimal digits, or 2^K, 2^K+D, 2^K-D. Rejects
 * signs, spaces, trailing junk and values above max. Returns 0 or -1. */
int cli_parse_count(const char *s, uint64_t max, uint64_t *out);

extern const char cli_usage[];

#ifdef __cplusplus
}
#endif
#endif
