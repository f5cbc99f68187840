/* parallel.c: the judge's per-call loops on all host threads (parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

#include "prng.h"
#include "scan_cpu.h"

enum { MAX_THREADS = 16, MIN_CHUNK = 1 << 20 };

enum job_kind { JOB_ADD, JOB_CHECK, JOB_FILL, JOB_SCAN, JOB_SHIFT };

typedef struct job {
  enum job_kind kind;
  size_t lo, hi;
  uint32_t *dst;
  const uint32_t *src;
  uint32_t add;  /* JOB_ADD, JOB_SHIFT: the constant added */
  uint64_t seed; /* JOB_FILL */
  judge_chunk_fn fn;
  void *ctx;
  spec_verdict v;
} job;

static void *work(void *arg) {
  job *j = arg;
  switch (j->kind) {
  case JOB_CHECK: j->fn(j->ctx, j->lo, j->hi, &j->v); break;
  case JOB_FILL: prng_fill_u32_from(j->seed, j->lo, j->dst + j->lo, j->hi - j->lo); break;
  case JOB_SCAN: /* int32 and uint32 wrap alike */
    scan_cpu_i32((const int32_t *)j->src + j->lo, (int32_t *)j->dst + j->lo, j->hi - j->lo, 0, SCAN_INCLUSIVE);
    break;
  case JOB_SHIFT:
    for (size_t i = j->lo; i < j->hi; i++) j->dst[i] += j->add;
    break;
  case JOB_ADD:
    for (size_t i = j->lo; i < j->hi; i++) j->dst[i] = j->src[i] + j->add;
    break;
  }
  return NULL;
}

/* How many threads for n elements: one per `chunk` of them, at most the cores (and MAX_THREADS). */
static int threads_per(size_t n, size_t chunk) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t t = n / chunk;
  if (t > (size_t)(cores > 0 ? cores : 1)) t = (size_t)(cores > 0 ? cores : 1);
  if (t > MAX_THREADS) t = MAX_THREADS;
  return t ? (int)t : 1;
}

static int threads_for(size_t n) { return threads_per(n, MIN_CHUNK); }

/* Runs the jobs (jobs[0] on this thread); a thread that cannot start runs here too. */
static void run(job *jobs, int n) {
  pthread_t tid[MAX_THREADS];
  int started[MAX_THREADS] = {0};
  for (int i = 1; i < n; i++) started[i] = pthread_create(&tid[i], NULL, work, &jobs[i]) == 0;
  work(&jobs[0]);
  for (int i = 1; i < n; i++) {
    if (started[i]) pthread_join(tid[i], NULL);
    else work(&jobs[i]);
  }
}

static void split(job *jobs, int n, size_t total) {
  for (int i = 0; i < n; i++) {
    jobs[i].lo = total * (size_t)i / (size_t)n;
    jobs[i].hi = total * (size_t)(i + 1) / (size_t)n;
  }
}

void judge_parallel_add(uint32_t *dst, const uint32_t *src, size_t n, uint32_t add) {
  job jobs[MAX_THREADS] = {{0}};
  int t = threads_for(n);
  split(jobs, t, n);
  for (int i = 0; i < t; i++) jobs[i].kind = JOB_ADD, jobs[i].dst = dst, jobs[i].src = src, jobs[i].add = add;
  run(jobs, t);
}

void judge_parallel_fill_u32(uint64_t seed, uint32_t *a, size_t n) {
  job jobs[MAX_THREADS] = {{0}};
  int t = threads_for(n);
  split(jobs, t, n);
  for (int i = 0; i < t; i++) jobs[i].kind = JOB_FILL, jobs[i].dst = a, jobs[i].seed = seed;
  run(jobs, t);
}

void judge_parallel_prefix(const uint32_t *in, uint32_t *out, size_t n) {
  job jobs[MAX_THREADS] = {{0}};
  int t = threads_for(n);
  split(jobs, t, n);
  for (int i = 0; i < t; i++) jobs[i].kind = JOB_SCAN, jobs[i].dst = out, jobs[i].src = in;
  run(jobs, t);
  /* Each chunk's inclusive sums start from 0: add the totals of the chunks before it. */
  uint32_t carry = 0;
  for (int i = 0; i < t; i++) {
    uint32_t total = jobs[i].hi > jobs[i].lo ? out[jobs[i].hi - 1] : 0;
    jobs[i].kind = JOB_SHIFT, jobs[i].add = carry;
    carry += total;
  }
  run(jobs, t);
}

void judge_parallel_check(size_t n, judge_chunk_fn fn, void *ctx, spec_verdict *v) {
  judge_parallel_check_by(n, MIN_CHUNK, fn, ctx, v);
}

void judge_parallel_check_by(size_t n, size_t chunk, judge_chunk_fn fn, void *ctx, spec_verdict *v) {
  job jobs[MAX_THREADS] = {{0}};
  int t = threads_per(n, chunk ? chunk : 1);
  split(jobs, t, n);
  for (int i = 0; i < t; i++) {
    jobs[i].kind = JOB_CHECK;
    jobs[i].fn = fn;
    jobs[i].ctx = ctx;
    judge_verdict_init(&jobs[i].v);
  }
  run(jobs, t);
  for (int i = 0; i < t; i++) judge_verdict_merge(v, &jobs[i].v);
}
