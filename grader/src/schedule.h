/* schedule.h: the order in which a grading's checks run, and how many at once.
 *
 * Most of a check's time is not GPU time: starting processes and CUDA
 * contexts, making inputs and checking outputs on the CPU, drawing the
 * reference images, a sanitizer's instrumentation. So the checks that only
 * need the GPU to be right (correct, sanitizer, ptx, model) run side by side,
 * up to `jobs` at a time, each in a child process of the grader. The checks
 * that time or profile the GPU (the kinds whose row has `alone`: perf,
 * metric) run afterwards, one at a time, in this process, with nothing else
 * on the GPU: a perf duel's ratio is what it would be alone.
 *
 * A check starts only once every check it `requires` has its verdict, and a
 * check that requires one that runs alone runs alone too. With jobs = 1
 * every check runs in this process, in the grade.conf's order, as one by one.
 * The verdicts do not depend on jobs; only the time does. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include "checks.h"

/* One check of the grading. The caller fills ctx, c, r (its slot), earlier
 * (the assignment's results array, r's own included) and index (r's place in
 * it); schedule_run fills *r and sets done. */
typedef struct sched_item {
  const assignment_ctx *ctx;
  const check_conf *c;
  check_result *r, *earlier;
  int index;
  int alone, done;   /* filled by schedule_run */
  int running;       /* a child is on it */
} sched_item;

/* Called in the grader's process each time an item gets its verdict. */
typedef void (*sched_done_fn)(void *arg, int item);

/* Runs every item, up to jobs at a time (1 .. SCHED_MAX_JOBS). */
enum { SCHED_MAX_JOBS = 16 };
void schedule_run(sched_item *items, int n, int jobs, sched_done_fn done, void *arg);

/* The default number of checks at once on this machine: a quarter of the CPU
 * threads, at most 4, and at most one per 8 GiB of the GPU's memory (the
 * largest duel of the course holds about 5 GiB); 1 when that leaves less than 2.
 * gpu_note is the grader's line about the device ("..., 79 GiB, ..."). */
int schedule_default_jobs(int have_gpu, const char *gpu_note);

#endif
