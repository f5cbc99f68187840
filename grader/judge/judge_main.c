/* judge_main.c: the judge, the trusted side of every run of a runner (spec.h).
 *
 *   build/grader/judge --assignment NN-name --runner build/starter/NN-name/runner \
 *       --variant VARIANT --case n2^24 --seed 7 --result-fd 3
 *
 * For each case: open it (the spec's buffers and state), send CASE, then warm-up
 * and timed samples of `batch` calls each. Before a sample the judge writes each
 * call's input into the shared memory; after it, it compares each call's outputs
 * itself (the spec's check, or expect + compare.h), warm-ups included. The
 * result line it writes on --result-fd is the only result the grader reads; the
 * runner's only word in it is the time. The command line is the runner's
 * (cli.h), so the grader and a student by hand use it alike.
 * Over 500 lines: one case's life (open, samples, verify, emit) shares this file's state; the case
 * plans, sessions, comparisons, CPU work, a duel's clocks (phase_clock.h) and the runners'
 * process trees (proc_tree.h) it drives are in their own modules. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_plan.h"
#include "call_limit.h"
#include "clock.h"
#include "cli.h"
#include "confinement.h"
#include "spec.h"
#include "outputs.h"
#include "parallel.h"
#include "phase_clock.h"
#include "prng.h"
#include "result.h"
#include "session.h"
#include "stats.h"

static const int DEFAULT_WARMUP = 2;
static const double DEFAULT_CALL_TIMEOUT_S = 20;
static const char COPY_SLUG[] = "copy_d2d";
enum { SLOT_ALIGN = 256 };

static const judge_spec *spec;
static session run, versus; /* the runner, and a perf duel's reference (--versus) */
static const cli_opts *opts;
static int call_limit_ms; /* --call-timeout: how long one batch may take */

/* Exit codes: 2 bad arguments; 3 the runner hit a CUDA error (its own line on
 * stderr says which); 4 the --versus runner (the reference) failed; 5 the
 * runner died, hung or broke the protocol; 6 the reference was disturbed in
 * both tries of a duel's case (duel_case). */
static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s judge: ", spec ? spec->name : "");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  if (run.pid > 0) session_finish(&run);
  if (versus.pid > 0) session_finish(&versus);
  exit(code);
}

/* The runner failed during case `name`: say how, and stop. A runner that
 * exited 3 has printed its CUDA error as the last line of stderr; keep it last. */
static void runner_failed(session *s, const char *name) {
  if (s == &versus) die(4, "case %s: the --versus runner (the reference) failed: %s", name, (session_finish(&versus), versus.why));
  if (versus.pid > 0) session_finish(&versus);
  session_finish(&run);
  if (run.exit_code == 3) exit(3);
  /* Under a tool (compute-sanitizer --error-exitcode 99), the tool's status is its verdict. */
  if (opts->n_prefix && run.exit_code > 0) {
    fprintf(stderr, "%s judge: case %s: %s\n", spec->name, name, run.why);
    exit(run.exit_code);
  }
  die(5, "case %s: %s", name, run.why);
}

/* The runner must still be in its sandbox, by the kernel's word (confinement.h): a runner
 * that is not is a failed run with that reason, never a result. */
static void check_confined(session *s, const char *name) {
  char why[sizeof s->why];
  if (!confinement_check(s, why, sizeof why)) return;
  snprintf(s->why, sizeof s->why, "%s", why);
  s->dead = 1;
  runner_failed(s, name);
}

/* Before each verdict: an empty batch (RUN, GO) whose replies can come only after every
 * earlier reply of the runner's own, so a DONE or OUT that the student's code forged in the
 * case's last call leaves the runner's real ones to be read here in place of SET (a broken
 * protocol); and the sandbox still in place. */
static void before_verdict(session *s, const char *name) {
  session_time t;
  if (session_prepare(s, 0) || session_go(s, &t)) runner_failed(s, name);
  check_confined(s, name);
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) die(3, "out of host memory: %zu bytes wanted", bytes);
  return p;
}

/* ---------------------------------------------------------------- the copy row */

/* copy_d2d: the runner copies in[0] to out[0]; the judge checks the bytes. */
typedef struct copy_state {
  uint64_t words;
} copy_state;

static double bytes_moved(uint64_t n, uint64_t param) { return spec->bytes_moved ? spec->bytes_moved(n, param) : 8.0 * (double)n; }

static void copy_fill(uint64_t seed, uint32_t *w, uint64_t n) { judge_parallel_fill_u32(seed, w, n); }

static void copy_input(judge_case *c, uint64_t k, void *const in[]) {
  copy_fill(judge_call_seed(c->seed, k), in[0], c->in[0].count);
}

static void copy_expect(judge_case *c, uint64_t k, void *const want[], uint8_t *const mask[]) {
  (void)mask;
  copy_fill(judge_call_seed(c->seed, k), want[0], c->out[0].count);
}

static void copy_open(judge_case *c, double bytes) {
  uint64_t words = (uint64_t)(bytes / 2 / 4); /* read once, written once */
  c->n_in = c->n_out = 1;
  c->in[0] = (spec_buf){.name = "in", .type = ELEM_UINT32, .count = words};
  c->out[0] = (spec_buf){.name = "copy", .type = ELEM_UINT32, .count = words};
}

/* ---------------------------------------------------------------- where a run's time goes */

/* SCANLAB_JUDGE_PROFILE set: one line per case on stderr, the seconds of each
 * phase of the judge (docs/grading.md, "Grading time"). Off by default. */
typedef enum { PH_START, PH_OPEN, PH_INPUT, PH_RUN, PH_EXPECT, PH_VERIFY, PH_CLOSE, PH_COUNT } phase;
static const char *const PHASE_NAMES[PH_COUNT] = {"start", "open", "input", "run", "expect", "verify", "close"};
static double spent[PH_COUNT], mark;
static int profiling;

/* The time since the last mark goes to phase p. */
static void lap(phase p) {
  if (!profiling) return;
  double t = clock_now_s();
  spent[p] += t - mark;
  mark = t;
}

static void profile_line(const char *case_name) {
  if (!profiling) return;
  fprintf(stderr, "%s judge: profile case=%s", spec->name, case_name);
  for (int p = 0; p < PH_COUNT; p++) fprintf(stderr, " %s=%.6f", PHASE_NAMES[p], spent[p]), spent[p] = 0;
  fputs(" s\n", stderr);
}

/* ---------------------------------------------------------------- one case */

typedef struct case_plan {
  const char *name;
  uint64_t n, seed, param;
  int spec_variant;   /* the variant whose inputs and verdict it uses, or WIRE_COPY_VARIANT */
  int runner_variant; /* the runner's slug index, or WIRE_COPY_VARIANT */
  const char *slug;
  int reps, warmup, batch;
  double copy_bytes; /* the copy's bytes moved (read + written); 0: bytes_moved */
} case_plan;

static size_t align_up(size_t x) { return (x + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN; }

/* The slot of one call: inputs, then outputs, each aligned. */
static void layout(const judge_case *c, wire_case *w, int batch) {
  uint64_t off = 0;
  w->n_in = (uint32_t)c->n_in;
  w->n_out = (uint32_t)c->n_out;
  for (int i = 0; i < c->n_in; i++) {
    size_t b = c->in[i].count * elem_bytes(c->in[i].type), d = c->in[i].device_count ? c->in[i].device_count * elem_bytes(c->in[i].type) : b;
    w->in[i] = (wire_buf){off, b, d};
    off = align_up(off + b);
  }
  for (int i = 0; i < c->n_out; i++) {
    size_t b = c->out[i].count * elem_bytes(c->out[i].type), d = c->out[i].device_count ? c->out[i].device_count * elem_bytes(c->out[i].type) : b;
    w->out[i] = (wire_buf){off, b, d};
    off = align_up(off + b);
  }
  w->slot_bytes = off ? off : SLOT_ALIGN;
  w->batch = (uint32_t)batch;
  w->shm_bytes = w->slot_bytes * (uint64_t)batch;
}

static void record_wrong(result_line *res, const spec_verdict *v) {
  res->mismatches = v->mismatches;
  res->first_bad = v->first_bad;
  res->first_x = v->first_x;
  res->first_y = v->first_y;
  res->max_err = v->max_err;
  res->masked = v->masked;
  res->nonfinite = v->nonfinite;
}

/* One runner's part of a case: its plan, the case it is judged by (its own, or
 * in a duel the other side's when both run the same variant: the same inputs,
 * and one expected output for both), and its result. */
typedef struct side {
  session *s;
  const case_plan *p;
  judge_case own, *c; /* c: &own, or the first side's */
  void (*input)(judge_case *, uint64_t, void *const[]);
  void (*expect)(judge_case *, uint64_t, void *const[], uint8_t *const[]);
  void (*check)(judge_case *, uint64_t, const void *const[], spec_verdict *);
  void *want[JUDGE_MAX_BUFS];
  uint8_t *mask[JUDGE_MAX_BUFS];
  wire_case w;
  double *ms;
  phase_log ph; /* a duel's steps around each timed window (phase_clock.h) */
  spec_verdict first_wrong;
  result_line *res;
} side;

static void side_open(side *d, session *s, const case_plan *p, side *first, result_line *res) {
  memset(res, 0, sizeof *res);
  snprintf(res->case_name, sizeof res->case_name, "%s", p->name);
  snprintf(res->variant, sizeof res->variant, "%s", p->slug);
  res->n = p->n;
  res->seed = p->seed;
  res->reps = p->reps;
  res->checked = 1;
  res->first_bad = res->first_x = res->first_y = -1;
  memset(d, 0, sizeof *d);
  d->s = s, d->p = p, d->res = res, d->c = &d->own;
  judge_verdict_init(&d->first_wrong);
  if (first && first->p->spec_variant == p->spec_variant) {
    d->c = first->c;
    d->input = first->input, d->expect = first->expect, d->check = first->check;
  } else {
    d->own = (judge_case){.spec = spec, .name = p->name, .n = p->n, .seed = p->seed, .param = p->param, .variant = p->spec_variant};
    d->input = spec->input, d->expect = spec->expect, d->check = spec->check;
    char err[300];
    if (p->spec_variant == WIRE_COPY_VARIANT) {
      copy_open(&d->own, p->copy_bytes > 0 ? p->copy_bytes : bytes_moved(p->n, p->param));
      d->input = copy_input, d->expect = copy_expect, d->check = NULL;
    } else if (spec->open(&d->own, err, sizeof err)) {
      die(2, "case %s: %s", p->name, err);
    }
    /* The expected outputs of one call (expect), private to the judge. */
    if (!d->check)
      for (int i = 0; i < d->own.n_out; i++) {
        d->want[i] = xmalloc(d->own.out[i].count * elem_bytes(d->own.out[i].type));
        if (d->own.out[i].masked) d->mask[i] = xmalloc(d->own.out[i].count);
      }
  }
  d->w.variant = p->runner_variant;
  d->w.n = p->n;
  d->w.param = p->param;
  layout(d->c, &d->w, p->batch);
  uint64_t work = 0;
  if (session_case(s, &d->w, &work)) runner_failed(s, p->name);
  res->work_bytes = work;
  d->ms = xmalloc((size_t)p->reps * sizeof *d->ms);
}

/* The inputs of calls call .. call + batch - 1 into the side's slots, made by
 * the case. In a duel that shares the case, each side's are made afresh from
 * it (the same calls, so the same inputs): copying them from the side that ran
 * first would be single-threaded, and would hand the second side whatever the
 * first side's process left in its slots. */
static void side_inputs(side *d, uint64_t call) {
  for (int j = 0; j < d->p->batch; j++) {
    char *slot = d->s->shm + (size_t)j * d->w.slot_bytes;
    void *in[JUDGE_MAX_BUFS];
    for (int i = 0; i < d->c->n_in; i++) in[i] = slot + d->w.in[i].offset;
    d->input(d->c, call + (uint64_t)j, in);
  }
}

/* Call `call` (slot j) of a side, judged against want (computed by the side that owns the case). */
static void side_verify(side *d, int j, uint64_t call, void *const want[], uint8_t *const mask[]) {
  const char *slot = d->s->shm + (size_t)j * d->w.slot_bytes;
  const void *got[JUDGE_MAX_BUFS];
  judge_case *c = d->c;
  for (int i = 0; i < c->n_out; i++) got[i] = slot + d->w.out[i].offset;
  spec_verdict v;
  judge_verdict_init(&v);
  if (d->check) {
    d->check(c, call, got, &v);
  } else {
    for (int i = 0; i < c->n_out; i++) {
      spec_verdict one;
      judge_verdict_init(&one);
      judge_compare(&c->out[i], got[i], want[i], mask[i], &one);
      v.mismatches += one.mismatches;
      v.masked += one.masked;
      v.nonfinite += one.nonfinite;
      if (one.max_err > v.max_err) v.max_err = one.max_err;
      if (one.first_bad >= 0 && v.first_bad < 0) v.first_bad = one.first_bad, v.first_x = one.first_x, v.first_y = one.first_y;
    }
  }
  result_line *res = d->res;
  res->verified++;
  if (!v.mismatches && !v.nonfinite) {
    if (!res->bad_reps) record_wrong(res, &v); /* the latest right call's masked count */
    return;
  }
  if (res->bad_reps++) return;
  d->first_wrong = v;
  char err[300];
  if (opts->save_failed && !d->check && c->out[0].type == ELEM_RGBA32F &&
      outputs_save_failed(opts->save_failed, d->p->name, &c->out[0], got[0], want[0], mask[0], err, sizeof err))
    die(3, "%s", err);
}

static void side_close(side *d) {
  result_line *res = d->res;
  const case_plan *p = d->p;
  if (res->bad_reps) record_wrong(res, &d->first_wrong);
  res->ok = res->bad_reps == 0;
  res->min_ms = stats_min(d->ms, p->reps);
  res->median_ms = stats_median(d->ms, p->reps);
  /* Event resolution is about half a microsecond; an empty case (n = 0) can
   * read 0 ms, which the protocol rejects as a time, so floor it. */
  if (!(res->min_ms > 0)) res->min_ms = 1e-6;
  if (!(res->median_ms > 0)) res->median_ms = 1e-6;
  if (opts->out) {
    int code;
    char err[300];
    const char *last = d->s->shm + (size_t)(p->batch - 1) * d->w.slot_bytes + d->w.out[0].offset;
    if (outputs_write(opts->out, &d->c->out[0], last, &code, err, sizeof err)) die(code, "%s", err);
  }
  if (session_end_case(d->s)) runner_failed(d->s, p->name);
  free(d->ms);
  if (d->c != &d->own) return;
  for (int i = 0; i < d->own.n_out; i++) free(d->want[i]), free(d->mask[i]);
  if (p->spec_variant != WIRE_COPY_VARIANT && spec->close) spec->close(&d->own);
}

/* One timed batch of `calls` calls on side i: its step times per the judge's
 * clock (session.c). In a duel the other side is first probed (IDLE: its
 * device idle, the wait timed into *drain_other when given) and then stopped
 * with its whole process tree while this one runs. */
static session_time side_batch(side *d, int i, int n_sides, uint32_t calls, double *drain_other) {
  session_time t = {0};
  if (n_sides == 2) {
    double ms = 0;
    if (session_idle(d[1 - i].s, &ms)) runner_failed(d[1 - i].s, d[1 - i].p->name);
    if (drain_other) *drain_other = ms;
    session_pause(d[1 - i].s); /* the other side cannot run while this one is timed */
  }
  int failed = session_prepare(d[i].s, calls) || session_go(d[i].s, &t);
  if (n_sides == 2) session_resume(d[1 - i].s);
  if (failed) runner_failed(d[i].s, d[i].p->name);
  return t;
}

/* What an empty window costs side i (the protocol and the wait for an idle
 * device), per call of the case's batch: the median of a few. Every sample
 * pays it; the batch keeps it a small share (docs/grading.md). */
enum { OVERHEAD_PROBES = 5 };
static void side_overhead(side *d, int i, int n_sides) {
  double t[OVERHEAD_PROBES];
  for (int k = 0; k < OVERHEAD_PROBES; k++) t[k] = side_batch(d, i, n_sides, 0, NULL).ms;
  d[i].res->overhead_ms = stats_median(t, OVERHEAD_PROBES) / d[i].p->batch;
}

/* ---------------------------------------------------------------- a duel's clocks (phase_clock.h) */

/* SCANLAB_JUDGE_PHASES set: after each duel case, one line per side on
 * stderr with each step's median and range per batch and the window's, and
 * the reference's median alone (grader/tests/phase-noise.sh reads them). */
static int phase_report;

/* The noise figures (phase_clock.h), or the environment's: SCANLAB_PHASE_NOISE
 * and SCANLAB_CEILING_NOISE, each "REL ABS_MS" (the CPU tier's tests, whose
 * host-memory device is timed through a loaded scheduler, and a measurement
 * that tries other figures). */
static double phase_rel = PHASE_NOISE_REL, phase_abs_ms = PHASE_NOISE_ABS_MS;
static double ceiling_rel = CEILING_NOISE_REL, ceiling_abs_ms = CEILING_NOISE_ABS_MS;

static void noise_from_env(const char *name, double *rel, double *abs_ms) {
  const char *v = getenv(name);
  if (v && judge_phase_noise_parse(v, rel, abs_ms))
    die(2, "%s: '%.40s' is not 'REL ABS_MS' (a fraction in [0, 10] and milliseconds in [0, 10000])", name, v);
}

/* The ceiling's figure: the reference's median per call with nothing of the
 * student's running: its runner probed idle and stopped, with its tree. In a
 * perf check (one case) the student's code has not run yet: the reference
 * opens the case before the student does. The calls are the case's first ones,
 * which the duel then skips; they are not verified (the reference is the
 * course's, and these samples only time it). */
static double reference_alone(side *ref, session *student, uint64_t *call) {
  int batch = ref->p->batch;
  double t[SOLO_REPS], drain;
  if (session_idle(student, &drain)) runner_failed(student, ref->p->name);
  session_pause(student);
  for (int k = 0; k < SOLO_WARMUP + SOLO_REPS; k++, *call += (uint64_t)batch) {
    side_inputs(ref, *call);
    session_time st;
    if (session_prepare(ref->s, (uint32_t)batch) || session_go(ref->s, &st)) {
      session_resume(student);
      runner_failed(ref->s, ref->p->name);
    }
    if (k >= SOLO_WARMUP) t[k - SOLO_WARMUP] = st.ms / batch;
  }
  session_resume(student);
  return stats_median(t, SOLO_REPS);
}

/* The student's steps against the reference's: the excess beyond the noise,
 * per call, added to each of its timed samples (res->charged_ms). */
static int phase_charging; /* on, unless SCANLAB_PHASE_CHARGE=0 (report only) */
static void charge_student(side *d, int reps, int batch) {
  if (!judge_phase_comparable(&d[0].w, &d[1].w)) {
    fprintf(stderr, "%s judge: case %s: the baseline's buffers are not the student's: its steps are not compared\n", spec->name,
            d[0].p->name);
    return;
  }
  phase_charge c;
  judge_phase_charge_compute(&d[0].ph, &d[1].ph, phase_rel, phase_abs_ms, &c);
  if (c.total_ms > 0) judge_phase_describe(stderr, spec->name, d[0].p->name, &c);
  double per_call = c.total_ms / batch;
  /* The noise figures (phase_clock.h) were set from phase-noise.sh on an H100; with them two
   * assignments' solutions graded with the charge added scored full marks, perf 0.99-1.01x
   * (f26a687). SCANLAB_PHASE_CHARGE=0 reports the charge without adding it (diagnosis only). */
  if (c.total_ms > 0 && !phase_charging) fprintf(stderr, "%s judge: case %s: not charged (SCANLAB_PHASE_CHARGE=0)\n", spec->name, d[0].p->name);
  if (!phase_charging) return;
  for (int k = 0; k < reps; k++) d[0].ms[k] += per_call;
  d[0].res->charged_ms = per_call;
}

/* One case on one runner (n_sides 1), or a perf duel (2): side 1 (the
 * reference) and side 0 (the student) take turns, sample by sample, on the
 * same inputs, so both see the same clocks; each call is verified, and an
 * expected output is computed once for both. The reference runs first in the
 * first sample, whose time sets the student's call limit (call_limit.h). With
 * floor_ms > 0, timed samples below it (with their charge) are counted in
 * too_fast. A duel also times the steps around each window (phase_clock.h)
 * and, into *solo_ms unless it is above 0 already (a second try keeps the
 * first one's, taken before any student code ran), the reference alone.
 * Returns 1 when the reference was disturbed (its duel median above the
 * ceiling), else 0. */
static int run_case(const case_plan *plans, session *const sessions[], int n_sides, result_line *res, double floor_ms,
                    double *solo_ms) {
  side d[2];
  lap(PH_START); /* what came before: starting the runners, or the previous case's line */
  int batch = plans[0].batch, warmup = plans[0].warmup, reps = plans[0].reps;
  uint64_t call = 0;
  /* The reference (side 1 of a duel) opens the case first, so its buffers and
   * workspace are on the device before the student's workspace function runs:
   * a student who takes the GPU's memory there fails alone, and never makes
   * the reference fail (which would be an error of the check, not a fail).
   * Its samples alone come before the student's first code of the case too. */
  for (int k = 0; k < n_sides; k++) {
    int i = n_sides - 1 - k;
    side_open(&d[i], sessions[i], &plans[i], k ? &d[n_sides - 1] : NULL, &res[i]);
    if (judge_phase_log_init(&d[i].ph, reps)) die(3, "out of host memory");
    /* The samples alone, for the ceiling: perf duels only (--floor). A correctness duel (a correct
     * check's first run, the reference there for its sanity and the call limit) scores no time, and
     * its cases are too small for a median to be stable within the ceiling's noise (issue 39: on an
     * H100 at 7c84419, n1 and rgb-256x256 tripped a 15 % ceiling in both tries). */
    if (n_sides == 2 && i == 1 && opts->floor > 0 && !(*solo_ms > 0)) *solo_ms = reference_alone(&d[1], sessions[0], &call);
  }
  for (int k = 0; k < n_sides; k++) side_overhead(d, n_sides - 1 - k, n_sides);
  lap(PH_OPEN);
  for (int sample = 0; sample < warmup + reps; sample++, call += (uint64_t)batch) {
    for (int t = 0; t < n_sides; t++) {
      int i = n_sides == 2 && sample % 2 == 0 ? 1 - t : t; /* the reference first in even samples */
      side_inputs(&d[i], call);
      lap(PH_INPUT);
      double drain = 0;
      session_time st = side_batch(d, i, n_sides, (uint32_t)batch, &drain);
      lap(PH_RUN);
      if (n_sides == 2) judge_phase_log_drain(&d[1 - i].ph, drain); /* the other side's latest sample's */
      if (sample >= warmup) {
        d[i].ms[sample - warmup] = st.ms / batch;
        judge_phase_log_sample(&d[i].ph, st.prep_ms, st.fetch_ms);
      }
      if (n_sides == 2 && i == 1 && sample == 0) { /* the student's limit in this case, from the reference's batch */
        int derived = (int)(1000 * call_limit_s(st.ms));
        d[0].s->limit_ms = derived < call_limit_ms ? derived : call_limit_ms;
      }
    }
    for (int j = 0; j < batch; j++)
      for (int k = 0; k < n_sides; k++) {
        int i = n_sides - 1 - k; /* the reference first: when the case is shared, it owns the expected output */
        side *owner = d[i].c == &d[i].own ? &d[i] : &d[1 - i];
        if (owner == &d[i] && !d[i].check) d[i].expect(d[i].c, call + (uint64_t)j, d[i].want, d[i].mask), lap(PH_EXPECT);
        side_verify(&d[i], j, call + (uint64_t)j, owner->want, owner->mask);
        lap(PH_VERIFY);
      }
  }
  int disturbed = 0;
  if (n_sides == 2) {
    for (int i = 0; i < 2; i++) { /* what each side's last sample left queued */
      double drain = 0;
      if (session_idle(d[i].s, &drain)) runner_failed(d[i].s, d[i].p->name);
      judge_phase_log_drain(&d[i].ph, drain);
    }
    if (phase_report) {
      judge_phase_report(stderr, spec->name, plans[1].name, "reference", &d[1].ph, d[1].ms, reps, batch, *solo_ms);
      judge_phase_report(stderr, spec->name, plans[0].name, "student", &d[0].ph, d[0].ms, reps, batch, 0);
    }
    charge_student(d, reps, batch);
    res[1].solo_ms = *solo_ms;
    if (opts->floor > 0) /* a perf duel (the samples alone above) */
      disturbed = judge_phase_ceiling_disturbed(judge_phase_median(d[1].ms, reps), *solo_ms, ceiling_rel, ceiling_abs_ms);
  }
  for (int i = 0; i < n_sides; i++) {
    res[i].floor_ms = floor_ms;
    for (int k = 0; k < reps; k++) res[i].too_fast += floor_ms > 0 && d[i].ms[k] < floor_ms;
    judge_phase_log_free(&d[i].ph);
  }
  for (int i = 0; i < n_sides; i++) before_verdict(d[i].s, plans[i].name);
  for (int i = 0; i < n_sides; i++) side_close(&d[i]); /* the sharing side (the student's) first: the owner frees the case */
  lap(PH_CLOSE);
  profile_line(plans[0].name);
  return disturbed;
}

/* A perf duel of one case, with its ceiling: a reference slowed beyond its
 * samples alone was disturbed by something of the student's (a second
 * context's kernel, a process the stop did not reach); the case is run once
 * more (a disturbance from outside the duel rarely comes twice), and a second
 * disturbance ends the run: exit 6, no result line. */
static void duel_case(const case_plan *c, session *const sides[], result_line *res, double floor_ms) {
  double solo_ms = 0;
  for (int attempt = 1;; attempt++) {
    if (!run_case(c, sides, 2, res, floor_ms, &solo_ms)) return;
    double ratio = res[1].median_ms / solo_ms;
    if (attempt == 2)
      die(6, "case %s: the reference was disturbed: its median in the duel, %.4f ms, was %.2f x its median alone (%.4f ms) in "
             "both tries, beyond the noise (%.0f%%): something of the student's ran while the reference was timed "
             "(docs/grading.md, threat model)", c->name, res[1].median_ms, ratio, solo_ms, 100 * ceiling_rel);
    fprintf(stderr, "%s judge: case %s: the reference was disturbed (its median %.4f ms, %.2f x its median alone, %.4f ms): "
            "the case is run again\n", spec->name, c->name, res[1].median_ms, ratio, solo_ms);
  }
}

/* A duel's floor for one case (--floor F): the reference's runner copies the
 * bytes a call cannot avoid moving, device to device, in batches like the
 * case's, and sets the floor from it with F (docs/grading.md, perf, "The
 * floor"). The student's process plays no part in it. */
enum { FLOOR_COPY_REPS = 5 };
static double duel_floor_ms(const case_plan *p) {
  double bytes = spec->unavoidable_bytes ? spec->unavoidable_bytes(p->spec_variant, p->n, p->param) : bytes_moved(p->n, p->param);
  if (!(bytes >= 8)) return 0; /* nothing to move (n = 0): no floor */
  case_plan c = {p->name, p->n, p->seed, p->param, WIRE_COPY_VARIANT, WIRE_COPY_VARIANT, COPY_SLUG,
                 FLOOR_COPY_REPS, 1, p->batch, bytes};
  result_line r;
  double none = 0;
  run_case(&c, (session *const[]){&versus}, 1, &r, 0, &none);
  if (!r.ok) die(4, "case %s: the reference's device copy for the floor was wrong", p->name);
  return opts->floor * r.median_ms;
}

/* ---------------------------------------------------------------- result lines */

static void emit(int fd, const result_line *r) {
  char line[RESULT_LINE_MAX];
  int len = result_format(line, sizeof line, r);
  if (len < 0) die(3, "result line too long");
  for (const char *p = line; len > 0;) {
    ssize_t w = write(fd, p, (size_t)len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) die(3, "cannot write the result line: %s", strerror(errno));
    p += w;
    len -= (int)w;
  }
  if (r->ok) return;
  fprintf(stderr, "%s/%s: wrong in %d of %d calls; first wrong call: %" PRIu64 " elements differ, first at %" PRId64,
          r->case_name, r->variant, r->bad_reps, r->verified, r->mismatches, r->first_bad);
  if (r->first_x >= 0) fprintf(stderr, " (pixel %" PRId64 ",%" PRId64 ")", r->first_x, r->first_y);
  if (r->max_err > 0) fprintf(stderr, ", max error %.3g", r->max_err);
  if (r->nonfinite) fprintf(stderr, ", %" PRIu64 " not finite", r->nonfinite);
  if (r->masked) fprintf(stderr, ", %" PRIu64 " masked", r->masked);
  fputc('\n', stderr);
}

/* ---------------------------------------------------------------- tables */

static int find_variant(const char *slug) {
  for (int v = 0; v < spec->n_variants; v++)
    if (!strcmp(spec->variants[v].slug, slug)) return v;
  return -1;
}

static const spec_case *find_case(const char *name) {
  for (int c = 0; c < spec->n_cases; c++)
    if (!strcmp(spec->cases[c].name, name)) return &spec->cases[c];
  return NULL;
}

/* The runner must be this assignment's, with the variants in the spec's order;
 * slugs after them are the bench build's baselines, in the spec's order too.
 * Returns how many baselines the runner has. */
static int check_hello(const session *s, const char *path) {
  const wire_hello *h = &s->hello;
  if (strcmp(h->assignment, spec->name))
    die(2, "%s is the runner of '%.64s', not of %s", path, h->assignment, spec->name);
  if ((int)h->n_slugs < spec->n_variants || (int)h->n_slugs > spec->n_variants + spec->n_baselines)
    die(2, "%s has %u variants; the spec has %d (and %d baselines)", path, h->n_slugs, spec->n_variants, spec->n_baselines);
  for (int i = 0; i < (int)h->n_slugs; i++) {
    const char *want = i < spec->n_variants ? spec->variants[i].slug : spec->baselines[i - spec->n_variants].slug;
    if (strcmp(h->slugs[i], want)) die(2, "%s: its variant %d is '%.64s', the spec's is '%s'", path, i, h->slugs[i], want);
  }
  return (int)h->n_slugs - spec->n_variants;
}

/* --list, a machine format (docs/grading.md, "The runner protocol"). */
static void list(int n_baselines) {
  printf("assignment %s\n", spec->name);
  for (int v = 0; v < spec->n_variants; v++) printf("variant %s %s\n", spec->variants[v].slug, spec->variants[v].summary);
  printf("variant %s device-to-device copy of the case's bytes (a baseline, not student code)\n", COPY_SLUG);
  for (int b = 0; b < n_baselines; b++) printf("baseline %s %s\n", spec->baselines[b].slug, spec->baselines[b].summary);
  for (int c = 0; c < spec->n_cases; c++) {
    const spec_case *k = &spec->cases[c];
    printf("case %s %" PRIu64 " %" PRIu64 " %d %" PRIu64 "\n", k->name, k->n, k->seed, k->reps, k->param);
  }
}

/* ---------------------------------------------------------------- --bench */

static void bench_row(const char *name, const char *kind, const char *case_name, uint64_t n, const result_line *res,
                      double bytes, double copy_ms, double base_ms) {
  double ms = res->median_ms, x_base = base_ms > 0 ? ms / base_ms : 0.0;
  char xb[16]; /* against a CPU baseline x_base is tiny: three digits (0.00347), not 0.00 */
  snprintf(xb, sizeof xb, x_base > 0 && x_base < 0.1 ? "%.3g" : "%.2f", x_base);
  printf("%-28s %-8s %-14s %12" PRIu64 " %10.4f %9.1f %7.2f %7s %9.1f %4s %7.2f\n", name, kind, case_name, n, ms,
         bytes / (ms * 1e-3) / 1e9, ms / copy_ms, xb, (double)res->work_bytes / 1048576.0, res->ok ? "yes" : "NO",
         1e3 * res->overhead_ms);
}

static int baseline_variant(int b) { return spec->baseline_variants ? spec->baseline_variants[b] : 0; }

typedef struct bench_point {
  const spec_case *k;
  uint64_t n;
  char label[RESULT_NAME_MAX]; /* the case's name, or its name at this size ("n2^24@2^20") */
} bench_point;

static void size_label(uint64_t n, char *out, size_t cap) {
  int e = 0;
  while (e < 63 && (1ull << (e + 1)) <= n) e++;
  if (n && n == (1ull << e)) snprintf(out, cap, "2^%d", e);
  else if (n && n - (1ull << e) < 1000) snprintf(out, cap, "2^%d+%" PRIu64, e, n - ((uint64_t)1 << e));
  else snprintf(out, cap, "%" PRIu64, n);
}

/* What --bench times: --n N; or the cases named with --case; or the bench
 * case at each of bench_sizes, then each of bench_cases; or the bench case. */
static int bench_points(bench_point *pts, int cap) {
  const spec_case *k = spec->bench_case ? find_case(spec->bench_case) : NULL;
  int n = 0;
  if (opts->have_n) {
    pts[n++] = (bench_point){NULL, opts->n, "adhoc"};
  } else if (opts->n_cases) {
    for (int i = 0; i < opts->n_cases && n < cap; i++) pts[n++] = (bench_point){find_case(opts->cases[i]), 0, ""};
  } else {
    if (spec->bench_sizes && k) {
      for (int i = 0; i < spec->n_bench_sizes && n < cap; i++) {
        pts[n] = (bench_point){k, spec->bench_sizes[i], ""};
        char size[32];
        size_label(spec->bench_sizes[i], size, sizeof size);
        snprintf(pts[n].label, sizeof pts[n].label, "n%s", size); /* the row's real size, not the case's */
        n++;
      }
    }
    for (int i = 0; spec->bench_cases && i < spec->n_bench_cases && n < cap; i++) {
      const spec_case *c = find_case(spec->bench_cases[i]);
      if (!c) die(2, "bench_cases names '%s', which is not a case", spec->bench_cases[i]);
      pts[n++] = (bench_point){c, 0, ""};
    }
    if (!n && k) pts[n++] = (bench_point){k, 0, ""};
  }
  for (int i = 0; i < n; i++) {
    if (pts[i].k && !pts[i].n) pts[i].n = pts[i].k->n;
    if (!pts[i].label[0]) snprintf(pts[i].label, sizeof pts[i].label, "%s", pts[i].k ? pts[i].k->name : "adhoc");
  }
  return n;
}

/* --bench: for each point, the copy of the same bytes (the practical ceiling),
 * the baselines the runner has, then every variant; every call verified. */
static int bench(int n_baselines) {
  int warmup = opts->warmup >= 0 ? opts->warmup : 5;
  bench_point pts[64];
  int n_pts = bench_points(pts, 64);
  if (!n_pts) die(2, "no bench case");
  char reps_note[96];
  if (opts->reps > 0 || spec->bench_reps > 0)
    snprintf(reps_note, sizeof reps_note, "%d samples", opts->reps > 0 ? opts->reps : spec->bench_reps);
  else
    snprintf(reps_note, sizeof reps_note, "each case's samples (--list; fewer above its size)");
  printf("# %s bench on %s: median of %s after %d warm-up, every call verified by the judge\n", spec->name, run.hello.device,
         reps_note, warmup);
  printf("# bytes per run: %s; GB/s = bytes / median; x_copy = time / copy time; x_base = time / %s time\n",
         spec->bytes_note ? spec->bytes_note : "n ints read + n ints written",
         n_baselines ? "its baseline's (the first, or the one of its variant)" : "(no baseline)");
  printf("# ovh_us: what an empty window costs a sample (GO to DONE with no call), per call of the batch; the median includes it\n");
  printf("%-28s %-8s %-14s %12s %10s %9s %7s %7s %9s %4s %7s\n", "row", "kind", "case", "n", "median_ms", "GB/s", "x_copy",
         "x_base", "work_MiB", "ok", "ovh_us");
  int all_ok = 1;
  for (int p = 0; p < n_pts; p++) {
    const spec_case *k = pts[p].k;
    uint64_t n = pts[p].n, param = k ? k->param : 0, seed = opts->have_seed ? opts->seed : k ? k->seed : 1;
    int reps_fixed = opts->reps > 0 || spec->bench_reps > 0;
    int reps = opts->reps > 0 ? opts->reps : spec->bench_reps > 0 ? spec->bench_reps : k ? k->reps : 50, batch;
    bench_plan(k ? k->n : 0, k ? k->batch : 1, reps, reps_fixed, n, &batch, &reps); /* fewer, shorter samples above the case's size */
    double bytes = bytes_moved(n, param), copy_ms = 0, base_ms[WIRE_MAX_SLUGS] = {0};
    int rows = 1 + n_baselines + spec->n_variants;
    for (int row = 0; row < rows; row++) {
      case_plan c = {pts[p].label, n, seed, param, WIRE_COPY_VARIANT, WIRE_COPY_VARIANT, COPY_SLUG, reps, warmup, batch, 0};
      const char *kind = "copy";
      int base = 0; /* the baseline this row is compared with */
      if (row > 0 && row <= n_baselines) {
        int b = row - 1;
        if (spec->baseline_max_n && n > spec->baseline_max_n[b]) continue; /* too slow at this size */
        c.spec_variant = baseline_variant(b);
        c.runner_variant = spec->n_variants + b;
        c.slug = spec->baselines[b].slug;
        kind = "baseline";
        base = b;
      } else if (row > n_baselines) {
        int v = row - 1 - n_baselines;
        c.spec_variant = c.runner_variant = v;
        c.slug = spec->variants[v].slug;
        kind = "variant";
        for (int b = n_baselines - 1; b >= 0; b--)
          if (baseline_variant(b) == v) base = b;
      }
      result_line res;
      double none = 0;
      run_case(&c, (session *const[]){&run}, 1, &res, 0, &none);
      if (row == 0) copy_ms = res.median_ms;
      if (!strcmp(kind, "baseline")) base_ms[base] = res.median_ms;
      double row_bytes = row > 0 && spec->bench_bytes ? spec->bench_bytes(c.spec_variant, n, param) : bytes;
      bench_row(c.slug, kind, pts[p].label, n, &res, row_bytes, copy_ms, n_baselines ? base_ms[base] : 0);
      all_ok &= res.ok;
    }
    fflush(stdout);
  }
  return all_ok ? 0 : 1;
}

/* ---------------------------------------------------------------- main */

static const judge_spec *find_spec(const char *name) {
  for (int i = 0; i < judge_n_specs; i++)
    if (!strcmp(judge_specs[i]->name, name)) return judge_specs[i];
  return NULL;
}

/* --profiled: the only folder a profiled runner may write (grader/runner/profiling.h), fresh,
 * and the profiler's TMPDIR; removed when the judge exits. */
static char profiled_path[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path) && errno != ENOENT ? -1 : 0;
}

static void remove_profiled_dir(void) {
  if (profiled_path[0]) nftw(profiled_path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *profiled_dir(void) {
  snprintf(profiled_path, sizeof profiled_path, "/tmp/scanlab-profiled-XXXXXX");
  if (!mkdtemp(profiled_path)) die(3, "--profiled: cannot make a folder under /tmp: %s", strerror(errno));
  atexit(remove_profiled_dir);
  setenv("TMPDIR", profiled_path, 1); /* the profiler's own temporary files, and its library's in the runner */
  return profiled_path;
}

static void start_runner(void) {
  if (!opts->runner) die(2, "--runner: which runner? (the program built from the student's code)");
  char *argv[40];
  int n = 0;
  for (int i = 0; i < opts->n_prefix && n < 38; i++) argv[n++] = opts->prefix[i];
  argv[n++] = (char *)opts->runner;
  argv[n] = NULL;
  double limit = opts->call_timeout_s > 0 ? opts->call_timeout_s : DEFAULT_CALL_TIMEOUT_S;
  call_limit_ms = (int)(limit * 1000);
  /* A duel's two runners start together: their CUDA contexts (a few tenths of
   * a second each) are made side by side. */
  /* A duel stops the idle side with its whole tree: orphans of a runner's
   * helpers become the judge's, where session_pause finds them (proc_tree.h). */
  if (opts->versus && session_adopt_orphans()) die(3, "cannot adopt orphans (PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
  if (session_spawn(&run, argv, opts->profiled ? profiled_dir() : NULL, (int)(limit * 1000))) runner_failed(&run, "(start)");
  char *vargv[2] = {(char *)opts->versus, NULL};
  if (opts->versus && session_spawn(&versus, vargv, NULL, (int)(limit * 1000))) runner_failed(&versus, "(start)");
  if (session_hello(&run)) runner_failed(&run, "(start)");
  if (opts->versus && session_hello(&versus)) runner_failed(&versus, "(start)");
  /* Before the first CASE: both runners in their sandboxes. */
  check_confined(&run, "(start)");
  if (opts->versus) check_confined(&versus, "(start)");
}

int main(int argc, char **argv) {
  static cli_opts o;
  char err[256];
  opts = &o;
  if (cli_parse(argc, argv, &o, err, sizeof err)) {
    fprintf(stderr, "judge: %s\n%s", err, cli_usage);
    return 2;
  }
  if (o.help) {
    fputs(cli_usage, stdout);
    return 0;
  }
  profiling = getenv("SCANLAB_JUDGE_PROFILE") != NULL;
  phase_report = getenv("SCANLAB_JUDGE_PHASES") != NULL;
  noise_from_env("SCANLAB_PHASE_NOISE", &phase_rel, &phase_abs_ms);
  const char *charge = getenv("SCANLAB_PHASE_CHARGE");
  phase_charging = !(charge && !strcmp(charge, "0"));
  noise_from_env("SCANLAB_CEILING_NOISE", &ceiling_rel, &ceiling_abs_ms);
  mark = clock_now_s();
  if (!o.assignment) die(2, "--assignment: which assignment?");
  if (!(spec = find_spec(o.assignment))) die(2, "--assignment: no assignment '%s'", o.assignment);
  int variant = 0, copy = 0;
  if (o.variant && !strcmp(o.variant, COPY_SLUG)) copy = 1;
  else if (o.variant && (variant = find_variant(o.variant)) < 0) die(2, "--variant: unknown variant '%s' (--list shows them)", o.variant);
  if (o.have_n && o.n > spec->max_n) die(2, "--n: %" PRIu64 " is above this assignment's limit %" PRIu64, o.n, spec->max_n);
  for (int c = 0; c < o.n_cases; c++)
    if (!find_case(o.cases[c])) die(2, "--case: unknown case '%s' (--list shows them)", o.cases[c]);
  if (fcntl(o.result_fd, F_GETFD) < 0) die(2, "--result-fd: descriptor %d is not open", o.result_fd);
  if (o.list && !o.runner) {
    list(0);
    return 0;
  }
  start_runner();
  int n_baselines = check_hello(&run, opts->runner);
  int rc = 0;
  if (o.list) {
    list(n_baselines);
  } else if (o.bench) {
    rc = bench(n_baselines);
  } else {
    int warmup = o.warmup >= 0 ? o.warmup : DEFAULT_WARMUP;
    const char *slug = copy ? COPY_SLUG : spec->variants[variant].slug;
    int v = copy ? WIRE_COPY_VARIANT : variant;
    /* A duel: the reference's variant, one of its variants or baselines, or the copy. */
    case_plan other = {0};
    if (o.versus) {
      int vb = check_hello(&versus, o.versus);
      other.slug = o.versus_variant ? o.versus_variant : slug;
      if (!strcmp(other.slug, COPY_SLUG)) {
        other.spec_variant = other.runner_variant = WIRE_COPY_VARIANT;
      } else if ((other.spec_variant = other.runner_variant = find_variant(other.slug)) < 0) {
        for (int b = 0; b < vb; b++)
          if (!strcmp(spec->baselines[b].slug, other.slug)) other.runner_variant = spec->n_variants + b, other.spec_variant = baseline_variant(b);
        if (other.runner_variant < 0) die(2, "--versus-variant: %s has no variant or baseline '%s'", o.versus, other.slug);
      }
    }
    result_line res[2];
    session *const sides[2] = {&run, &versus};
    int count = o.have_n ? 1 : o.n_cases ? o.n_cases : spec->n_cases; /* no --case and no --n: every case in the table */
    for (int i = 0; i < count; i++) {
      case_plan c[2];
      if (o.have_n) {
        c[0] = (case_plan){"adhoc", o.n, o.have_seed ? o.seed : 1, 0, v, v, slug, o.reps > 0 ? o.reps : 10, warmup, o.batch > 0 ? o.batch : 1, 0};
      } else {
        const spec_case *k = o.n_cases ? find_case(o.cases[i]) : &spec->cases[i];
        c[0] = (case_plan){k->name, k->n, o.have_seed ? o.seed : k->seed, k->param, v, v, slug, o.reps > 0 ? o.reps : k->reps,
                           warmup, o.batch > 0 ? o.batch : k->batch > 0 ? k->batch : 1, 0};
      }
      c[1] = c[0];
      c[1].slug = other.slug, c[1].spec_variant = other.spec_variant, c[1].runner_variant = other.runner_variant;
      /* The floor judges the student's variant: its unavoidable bytes. */
      double floor_ms = o.versus && o.floor > 0 ? duel_floor_ms(&c[0]) : 0;
      double none = 0;
      if (o.versus) duel_case(c, sides, res, floor_ms);
      else run_case(c, sides, 1, res, floor_ms, &none);
      if (o.versus) emit(o.result_fd, &res[1]); /* the reference's line first */
      emit(o.result_fd, &res[0]);
    }
  }
  if (o.versus && session_finish(&versus)) die(4, "the --versus runner (the reference) failed: %s", versus.why);
  if (session_finish(&run)) {
    if (run.exit_code == 3) return 3;
    if (o.n_prefix && run.exit_code > 0) return run.exit_code; /* the tool's verdict (compute-sanitizer's 99) */
    die(5, "%s", run.why);
  }
  return rc;
}
