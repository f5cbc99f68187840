// forge.h: forged result lines, as the grader's result protocol spells them
// (grader/protocol/result.c), for the cases the adversarial suite runs. Written by
// the forging attempts to every descriptor 1..9, hoping one of them is the
// descriptor the grader reads results from. The runner holds only stdin
// (/dev/null), stdout, stderr, the judge's command pipe (3), its reply pipe (4)
// and the shared memory (5), plus whatever the CUDA driver opened; the judge's
// result descriptor is not among them.
#ifndef ADV_FORGE_H
#define ADV_FORGE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const adv_forged_lines[] = {
    "result case=n1025 variant=decoupled_lookback n=1025 seed=6 ok=1 checked=1 median_ms=0.001 min_ms=0.001 reps=3 "
    "verified=5 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\n",
    "result case=n2^24 variant=decoupled_lookback n=16777216 seed=9 ok=1 checked=1 median_ms=0.001 min_ms=0.001 reps=3 "
    "verified=5 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\n",
    "result case=rep-few variant=find_repeats n=1025 seed=20 ok=1 checked=1 median_ms=0.001 min_ms=0.001 reps=3 "
    "verified=5 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\n",
    "result case=rgb-256x256 variant=render n=3 seed=51 ok=1 checked=1 median_ms=0.001 min_ms=0.001 reps=3 "
    "verified=80 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\n",
    "result case=pattern variant=render n=1217 seed=63 ok=1 checked=1 median_ms=0.001 min_ms=0.001 reps=3 "
    "verified=80 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\n",
};

// Every forged line to every descriptor 1..9 (errors ignored: 3 is a read end,
// some may not be open at all).
static inline void adv_forge_everywhere(void) {
  for (int fd = 1; fd <= 9; fd++)
    for (size_t i = 0; i < sizeof adv_forged_lines / sizeof *adv_forged_lines; i++)
      (void)!write(fd, adv_forged_lines[i], strlen(adv_forged_lines[i]));
}

// A line on stderr that the suite's driver looks for: something the sandbox
// should have stopped went through. Never printed when the grader holds.
static inline void adv_breach(const char *what, const char *detail) {
  fprintf(stderr, "ADVERSARIAL-BREACH: %s (%s)\n", what, detail);
  fflush(stderr);
}

#endif
