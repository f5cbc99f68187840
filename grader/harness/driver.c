/* driver.c: hx_main, the driver every assignment's harness runs (driver.h).
 *
 * One case: allocate the workspace (untimed, poisoned), setup (untimed), put
 * the expected outputs on the device, warm up, then R timed reps. Before each
 * rep the outputs are poisoned and, from the second rep on, next_frame may move
 * the inputs; the timer covers only the student's entry point. After each rep,
 * outside the timed region, a comparison kernel checks every output against
 * the expected one kept on the device, so every rep is verified and only a
 * few counters come back to the host. */
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compact_cpu.h"
#include "prng.h"
#include "result.h"
#include "scan_cpu.h"
#include "stats.h"

/* Every element the student forgets to write reads back as 0xA5A5A5A5 (or
 * that float, about -2.9e-16), which no case expects. */
static const int POISON_BYTE = 0xA5;
static const int DEFAULT_WARMUP = 2;
static const char COPY_SLUG[] = "copy_d2d";

static const hx_backend *dev; /* the device of this run */
static const char *prog = "harness";
static char hint[200];

const char *hx_error_hint(void) { return hint; }

/* ---------------------------------------------------------------- memory of one case */

typedef struct arena_block {
  struct arena_block *next;
  void *p;
  int on_device;
} arena_block;
static arena_block *arena;

void hx_die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(code);
}

static void arena_add(void *p, int on_device) {
  arena_block *b = (arena_block *)malloc(sizeof *b);
  if (!b) hx_die(3, "out of host memory");
  b->p = p;
  b->on_device = on_device;
  b->next = arena;
  arena = b;
}

void hx_arena_release(void) {
  while (arena) {
    arena_block *b = arena;
    arena = b->next;
    if (b->on_device) dev->release(b->p);
    else free(b->p);
    free(b);
  }
}

void *hx_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) hx_die(3, "out of host memory: %zu bytes wanted", bytes);
  arena_add(p, 0);
  return p;
}

static void *dev_alloc(size_t bytes, const char *what) {
  void *p = dev->alloc(bytes ? bytes : 4);
  if (!p) {
    size_t free_b = 0, total = 0;
    dev->mem_info(&free_b, &total);
    hx_die(3, "not enough device memory for %s: %zu bytes wanted, %zu of %zu free", what, bytes, free_b, total);
  }
  arena_add(p, 1);
  return p;
}

void *hx_dev_malloc(size_t bytes) { return dev_alloc(bytes, "the case's buffers"); }

void *hx_dev_upload(const void *host, size_t bytes) {
  void *d = hx_dev_malloc(bytes);
  if (bytes) dev->upload(d, host, bytes);
  return d;
}

void hx_upload(void *d, const void *host, size_t bytes) {
  if (bytes) dev->upload(d, host, bytes);
}
void hx_download(void *host, const void *d, size_t bytes) {
  if (bytes) dev->download(host, d, bytes);
}

int32_t *hx_random_ints(uint64_t seed, size_t n, int32_t lo, int32_t hi) {
  int32_t *a = (int32_t *)hx_malloc(n * sizeof *a);
  prng_fill_i32(seed, a, n, lo, hi);
  return a;
}

uint32_t *hx_random_uints(uint64_t seed, size_t n, uint32_t lo, uint32_t hi) {
  uint32_t *a = (uint32_t *)hx_malloc(n * sizeof *a);
  prng g;
  prng_seed(&g, seed);
  uint32_t span = hi - lo + 1u; /* 0: the full 32-bit range */
  for (size_t i = 0; i < n; i++) a[i] = lo + (span ? prng_below(&g, span) : (uint32_t)(prng_next(&g) >> 32));
  return a;
}

void hx_scan_cpu(const int32_t *in, int32_t *out, size_t n, size_t seg_len, int exclusive) {
  scan_cpu_i32(in, out, n, seg_len, exclusive ? SCAN_EXCLUSIVE : SCAN_INCLUSIVE);
}

size_t hx_find_repeats_cpu(const uint32_t *a, size_t n, uint32_t *indices) { return compact_cpu_repeats(a, n, indices); }

hx_output *hx_add_output(hx_io *io, const char *name, hx_type type, void *d, const void *expect, size_t count) {
  if (io->n_out == HX_MAX_OUTPUTS) hx_die(3, "more than %d outputs", HX_MAX_OUTPUTS);
  hx_output *o = &io->out[io->n_out++];
  memset(o, 0, sizeof *o);
  o->name = name;
  o->type = type;
  o->dev = d;
  o->expect = expect;
  o->count = count;
  return o;
}

/* ---------------------------------------------------------------- tables */

static int find_variant(const hx_assignment *a, const char *slug) {
  for (int v = 0; v < a->n_variants; v++)
    if (!strcmp(a->variants[v].slug, slug)) return v;
  return -1;
}

static const hx_case *find_case(const hx_assignment *a, const char *name) {
  for (int c = 0; c < a->n_cases; c++)
    if (!strcmp(a->cases[c].name, name)) return &a->cases[c];
  return NULL;
}

/* --list, a machine format (docs/grading.md, "The harness protocol"). */
static void list(const hx_assignment *a) {
  printf("assignment %s\n", a->name);
  for (int v = 0; v < a->n_variants; v++) printf("variant %s %s\n", a->variants[v].slug, a->variants[v].summary);
  printf("variant %s device-to-device copy of the case's bytes (a baseline, not student code)\n", COPY_SLUG);
  for (int b = 0; b < a->n_baselines; b++) printf("baseline %s %s\n", a->baselines[b].slug, a->baselines[b].summary);
  for (int c = 0; c < a->n_cases; c++)
    printf("case %s %" PRIu64 " %" PRIu64 " %d %" PRIu64 "\n", a->cases[c].name, a->cases[c].n, a->cases[c].seed,
           a->cases[c].reps, a->cases[c].param);
}

static double bytes_moved(const hx_assignment *a, uint64_t n, uint64_t param) {
  return a->bytes_moved ? a->bytes_moved(n, param) : 8.0 * (double)n;
}

/* ---------------------------------------------------------------- verification */

/* The device copies of what each output must hold. */
typedef struct expected_dev {
  void *data[HX_MAX_OUTPUTS];
  uint8_t *mask[HX_MAX_OUTPUTS];
} expected_dev;

static void put_expected(const hx_io *io, expected_dev *e, int first_time) {
  for (int i = 0; i < io->n_out; i++) {
    const hx_output *o = &io->out[i];
    size_t bytes = o->count * hx_type_bytes(o->type);
    if (!o->expect) hx_die(3, "output '%s' has no expected values although --check was given", o->name);
    if (first_time) e->data[i] = dev_alloc(bytes, "the expected output");
    hx_upload(e->data[i], o->expect, bytes);
    if (o->mask) {
      if (first_time || !e->mask[i]) e->mask[i] = (uint8_t *)dev_alloc(o->count, "the output's mask");
      hx_upload(e->mask[i], o->mask, o->count);
    } else {
      e->mask[i] = NULL;
    }
  }
}

/* What one rep's outputs looked like, in result-line terms. */
typedef struct rep_verdict {
  uint64_t mismatches, masked, nonfinite;
  int64_t first_bad, first_x, first_y;
  double max_err;
  int bad_output; /* which output held first_bad, -1 when none */
} rep_verdict;

static void verify(const hx_io *io, const expected_dev *e, rep_verdict *v) {
  memset(v, 0, sizeof *v);
  v->first_bad = v->first_x = v->first_y = -1;
  v->bad_output = -1;
  uint64_t base = 0;
  for (int i = 0; i < io->n_out; i++) {
    const hx_output *o = &io->out[i];
    hx_cmp_job job = {o->type, o->dev, e->data[i], e->mask[i], o->count, o->tol};
    hx_cmp_sum s;
    dev->compare(&job, &s);
    v->mismatches += s.mismatches;
    v->masked += s.masked;
    v->nonfinite += s.nonfinite;
    if (s.max_err > v->max_err) v->max_err = s.max_err;
    if (s.first_bad != HX_NONE && v->first_bad < 0) {
      v->first_bad = (int64_t)(base + s.first_bad);
      v->bad_output = i;
      if (o->type == HX_RGBA32F && o->width > 0) {
        v->first_x = (int64_t)(s.first_bad % (uint64_t)o->width);
        v->first_y = (int64_t)(s.first_bad / (uint64_t)o->width);
      }
    }
    base += o->count;
  }
}

static void poison(const hx_io *io) {
  for (int i = 0; i < io->n_out; i++) {
    const hx_output *o = &io->out[i];
    size_t count = o->poison_count ? o->poison_count : o->count;
    if (count) dev->fill(o->dev, POISON_BYTE, count * hx_type_bytes(o->type));
  }
}

/* ---------------------------------------------------------------- one case */

typedef struct timing {
  double median_ms, min_ms;
} timing;

static void finish_timing(double *ms, int reps, timing *t) {
  t->min_ms = stats_min(ms, reps);
  t->median_ms = stats_median(ms, reps);
  /* Event resolution is about half a microsecond; an empty case (n = 0) can
   * read 0 ms, which the protocol rejects as a time, so floor it. */
  if (!(t->min_ms > 0)) t->min_ms = 1e-6;
  if (!(t->median_ms > 0)) t->median_ms = 1e-6;
}

/* What runs in the timed region: a student variant, a baseline, or the copy. */
typedef enum runner { RUN_VARIANT, RUN_BASELINE, RUN_COPY } runner;

typedef struct case_run {
  const hx_assignment *a;
  const cli_opts *o;
  hx_spec spec;
  runner what;
  int index; /* variant or baseline */
  int reps, warmup;
  const char *slug;
} case_run;

static void timed_call(const case_run *c, void *state, void *copy_src, void *copy_dst, size_t copy_bytes) {
  switch (c->what) {
  case RUN_VARIANT: c->a->run(state, c->index); break;
  case RUN_BASELINE: c->a->run_baseline(state, c->index); break;
  case RUN_COPY: if (copy_bytes) dev->copy(copy_dst, copy_src, copy_bytes); break;
  }
}

static void run_case(const case_run *c, result_line *res) {
  const hx_assignment *a = c->a;
  hx_spec spec = c->spec;
  memset(res, 0, sizeof *res);
  snprintf(res->case_name, sizeof res->case_name, "%s", spec.case_name);
  snprintf(res->variant, sizeof res->variant, "%s", c->slug);
  res->n = spec.n;
  res->seed = spec.seed;
  res->reps = c->reps;
  res->first_bad = res->first_x = res->first_y = -1;

  hx_io io;
  memset(&io, 0, sizeof io);
  void *state = NULL, *copy_src = NULL, *copy_dst = NULL;
  size_t copy_bytes = 0;
  if (c->what == RUN_COPY) {
    spec.check = 0; /* a copy has no reference to meet */
    copy_bytes = (size_t)(bytes_moved(a, spec.n, spec.param) / 2); /* read once, written once */
    copy_src = dev_alloc(copy_bytes, "the copy's source");
    copy_dst = dev_alloc(copy_bytes, "the copy's destination");
    dev->fill(copy_src, 1, copy_bytes);
  } else {
    if (a->workspace_bytes) {
      spec.work_bytes = a->workspace_bytes(spec.n, spec.param);
      if (spec.work_bytes) {
        char what[96];
        snprintf(what, sizeof what, "the workspace (workspace_bytes(n=%" PRIu64 "))", spec.n);
        spec.work = dev_alloc(spec.work_bytes, what);
        dev->fill(spec.work, POISON_BYTE, spec.work_bytes); /* nothing in it starts as zero */
      } else {
        snprintf(hint, sizeof hint, "the workspace function returned 0 bytes for n=%" PRIu64 ", so d_work is NULL",
                 spec.n);
      }
    }
    res->work_bytes = spec.work_bytes;
    state = a->setup(&spec, &io);
    if (!state) exit(2);
  }
  expected_dev e;
  memset(&e, 0, sizeof e);
  if (spec.check) put_expected(&io, &e, 1);

  for (int w = 0; w < c->warmup; w++) {
    poison(&io);
    timed_call(c, state, copy_src, copy_dst, copy_bytes);
  }
  double *ms = (double *)hx_malloc((size_t)c->reps * sizeof *ms);
  rep_verdict v, first_wrong;
  memset(&v, 0, sizeof v);
  memset(&first_wrong, 0, sizeof first_wrong);
  for (int r = 0; r < c->reps; r++) {
    if (r > 0 && a->next_frame && c->what != RUN_COPY) {
      io.expect_changed = 0;
      a->next_frame(state, r, &io);
      if (io.expect_changed && spec.check) put_expected(&io, &e, 0);
    }
    poison(&io);
    dev->timer_start();
    timed_call(c, state, copy_src, copy_dst, copy_bytes);
    ms[r] = dev->timer_stop_ms();
    if (!spec.check) continue;
    verify(&io, &e, &v);
    res->verified++;
    if (v.mismatches && !res->bad_reps++) {
      first_wrong = v;
      /* The images of the first wrong frame, while its output and reference are at hand. */
      if (c->o->save_failed) hx_save_failed(c->o->save_failed, spec.case_name, &io);
    }
  }
  timing t;
  finish_timing(ms, c->reps, &t);
  res->median_ms = t.median_ms;
  res->min_ms = t.min_ms;
  res->checked = spec.check;
  const rep_verdict *shown = res->bad_reps ? &first_wrong : &v;
  res->mismatches = shown->mismatches;
  res->first_bad = spec.check ? shown->first_bad : -1;
  res->first_x = spec.check ? shown->first_x : -1;
  res->first_y = spec.check ? shown->first_y : -1;
  res->max_err = shown->max_err;
  res->masked = shown->masked;
  res->nonfinite = shown->nonfinite;
  res->ok = res->bad_reps == 0;
  if (c->o->out) hx_write_out(c->o->out, &io);
  if (a->teardown && state) a->teardown(state);
  hx_arena_release();
  hint[0] = 0;
}

/* ---------------------------------------------------------------- result lines */

static void write_all(int fd, const char *buf, size_t len) {
  while (len) {
    ssize_t w = write(fd, buf, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) hx_die(3, "cannot write the result line: %s", strerror(errno));
    buf += w;
    len -= (size_t)w;
  }
}

static void emit(int fd, const result_line *r) {
  char line[RESULT_LINE_MAX];
  int len = result_format(line, sizeof line, r);
  if (len < 0) hx_die(3, "result line too long");
  write_all(fd, line, (size_t)len);
  if (!r->checked || r->ok) return;
  fprintf(stderr, "%s/%s: wrong in %d of %d timed reps; first wrong rep: %" PRIu64 " elements differ, first at %" PRId64,
          r->case_name, r->variant, r->bad_reps, r->verified, r->mismatches, r->first_bad);
  if (r->first_x >= 0) fprintf(stderr, " (pixel %" PRId64 ",%" PRId64 ")", r->first_x, r->first_y);
  if (r->max_err > 0) fprintf(stderr, ", max error %.3g", r->max_err);
  if (r->nonfinite) fprintf(stderr, ", %" PRIu64 " not finite", r->nonfinite);
  if (r->masked) fprintf(stderr, ", %" PRIu64 " masked", r->masked);
  fputc('\n', stderr);
}

/* ---------------------------------------------------------------- --bench */

static void bench_row(const char *name, const char *kind, const char *case_name, uint64_t n, const result_line *res,
                      double bytes, double copy_ms, double base_ms) {
  double ms = res->median_ms, x_base = base_ms > 0 ? ms / base_ms : 0.0;
  /* Against a CPU baseline x_base is tiny: three digits (0.00347), not 0.00. */
  char xb[16];
  snprintf(xb, sizeof xb, x_base > 0 && x_base < 0.1 ? "%.3g" : "%.2f", x_base);
  printf("%-28s %-8s %-14s %12" PRIu64 " %10.4f %9.1f %7.2f %7s %9.1f %4s\n", name, kind, case_name, n, ms,
         bytes / (ms * 1e-3) / 1e9, ms / copy_ms, xb, (double)res->work_bytes / 1048576.0,
         !res->checked ? "-" : res->ok ? "yes" : "NO");
}

/* The variant whose setup a baseline shares (harness.h). */
static int baseline_variant(const hx_assignment *a, int b) { return a->baseline_variants ? a->baseline_variants[b] : 0; }

/* One row group of --bench: a case (NULL for an ad-hoc --n) at a size. */
typedef struct bench_point {
  const hx_case *k;
  uint64_t n;
} bench_point;

/* What --bench times: --n N; or the cases named with --case; or the bench
 * case at each of bench_sizes; or each of bench_cases; or the bench case. */
static int bench_points(const hx_assignment *a, const cli_opts *o, bench_point *pts, int cap) {
  const hx_case *k = find_case(a, a->bench_case);
  int n = 0;
  if (o->have_n) {
    pts[n++] = (bench_point){NULL, o->n};
  } else if (o->n_cases) {
    for (int i = 0; i < o->n_cases && n < cap; i++) pts[n++] = (bench_point){find_case(a, o->cases[i]), 0};
  } else if (a->bench_sizes && k) {
    for (int i = 0; i < a->n_bench_sizes && n < cap; i++) pts[n++] = (bench_point){k, a->bench_sizes[i]};
  } else if (a->bench_cases) {
    for (int i = 0; i < a->n_bench_cases && n < cap; i++) {
      const hx_case *c = find_case(a, a->bench_cases[i]);
      if (!c) hx_die(2, "bench_cases names '%s', which is not a case", a->bench_cases[i]);
      pts[n++] = (bench_point){c, 0};
    }
  } else if (k) {
    pts[n++] = (bench_point){k, 0};
  }
  for (int i = 0; i < n; i++)
    if (pts[i].k && !pts[i].n) pts[i].n = pts[i].k->n;
  return n;
}

/* --bench: for each point, the copy of the same bytes (the practical ceiling),
 * the baselines, then every variant; each row verified on every rep. The
 * work_MiB column is the device workspace the row's code asked for. */
static int bench(const hx_assignment *a, const cli_opts *o, const char *desc) {
  int warmup = o->warmup >= 0 ? o->warmup : 5;
  bench_point pts[64];
  int n_pts = bench_points(a, o, pts, 64);
  if (!n_pts) hx_die(2, "no bench case");
  if (a->n_baselines > HX_MAX_BASELINES) hx_die(3, "more than %d baselines", HX_MAX_BASELINES);
  char reps_note[48];
  if (o->reps > 0 || a->bench_reps > 0) snprintf(reps_note, sizeof reps_note, "%d reps", o->reps > 0 ? o->reps : a->bench_reps);
  else snprintf(reps_note, sizeof reps_note, "each case's reps (--list)");
  printf("# %s bench on %s: median of %s after %d warm-up, every rep verified\n", a->name, desc, reps_note, warmup);
  printf("# bytes per run: %s; GB/s = bytes / median; x_copy = time / copy time; x_base = time / %s time\n",
         a->bytes_note ? a->bytes_note : "n ints read + n ints written",
         a->n_baselines ? "its baseline's (the first, or the one of its variant)" : "(no baseline)");
  printf("%-28s %-8s %-14s %12s %10s %9s %7s %7s %9s %4s\n", "row", "kind", "case", "n", "median_ms", "GB/s", "x_copy",
         "x_base", "work_MiB", "ok");
  int all_ok = 1;
  for (int p = 0; p < n_pts; p++) {
    const hx_case *k = pts[p].k;
    uint64_t n = pts[p].n, param = k ? k->param : 0, seed = o->have_seed ? o->seed : k ? k->seed : 1;
    const char *case_name = k ? k->name : "adhoc";
    int reps = o->reps > 0 ? o->reps : a->bench_reps > 0 ? a->bench_reps : k ? k->reps : 50;
    double bytes = bytes_moved(a, n, param), copy_ms = 0, base_ms[HX_MAX_BASELINES] = {0};
    int rows = 1 + a->n_baselines + a->n_variants;
    for (int row = 0; row < rows; row++) {
      case_run c = {a, o, {case_name, n, seed, param, 0, 1, NULL, 0}, RUN_COPY, 0, reps, warmup, COPY_SLUG};
      int base = 0; /* the baseline this row is compared with */
      if (row > 0 && row <= a->n_baselines) {
        if (a->baseline_max_n && n > a->baseline_max_n[row - 1]) continue; /* too slow at this size */
        c.what = RUN_BASELINE;
        c.index = base = row - 1;
        c.spec.variant = baseline_variant(a, c.index);
        c.slug = a->baselines[c.index].slug;
      } else if (row > a->n_baselines) {
        c.what = RUN_VARIANT;
        c.index = c.spec.variant = row - 1 - a->n_baselines;
        c.slug = a->variants[c.index].slug;
        for (int b = a->n_baselines - 1; b >= 0; b--)
          if (baseline_variant(a, b) == c.index) base = b;
      }
      result_line res;
      run_case(&c, &res);
      if (row == 0) copy_ms = res.median_ms;
      if (c.what == RUN_BASELINE) base_ms[c.index] = res.median_ms;
      static const char *const KIND[] = {"variant", "baseline", "copy"};
      bench_row(c.slug, KIND[c.what], case_name, n, &res, bytes, copy_ms, a->n_baselines ? base_ms[base] : 0);
      all_ok &= res.ok;
    }
    fflush(stdout);
  }
  return all_ok ? 0 : 1;
}

/* ---------------------------------------------------------------- hx_main */

int hx_main_with(int argc, char **argv, const hx_assignment *a, const hx_backend *b) {
  dev = b;
  prog = a->name;
  cli_opts o;
  char err[256];
  if (cli_parse(argc, argv, &o, err, sizeof err)) {
    fprintf(stderr, "%s: %s\n%s", a->name, err, cli_usage);
    return 2;
  }
  if (o.help) {
    fputs(cli_usage, stdout);
    return 0;
  }
  if (o.list) {
    list(a);
    return 0;
  }
  runner what = RUN_VARIANT;
  int variant = 0;
  if (o.variant && !strcmp(o.variant, COPY_SLUG)) {
    what = RUN_COPY;
  } else if (o.variant && (variant = find_variant(a, o.variant)) < 0) {
    fprintf(stderr, "%s: --variant: unknown variant '%s' (--list shows them)\n", a->name, o.variant);
    return 2;
  }
  if (o.have_n && o.n > a->max_n) {
    fprintf(stderr, "%s: --n: %" PRIu64 " is above this assignment's limit %" PRIu64 "\n", a->name, o.n, a->max_n);
    return 2;
  }
  for (int c = 0; c < o.n_cases; c++)
    if (!find_case(a, o.cases[c])) {
      fprintf(stderr, "%s: --case: unknown case '%s' (--list shows them)\n", a->name, o.cases[c]);
      return 2;
    }
  int fd = o.result_fd;
  if (fcntl(fd, F_GETFD) < 0) {
    fprintf(stderr, "%s: --result-fd: descriptor %d is not open\n", a->name, fd);
    return 2;
  }
  char desc[256];
  dev->init(desc, sizeof desc); /* the context, now, outside any timing */

  if (o.bench) return bench(a, &o, desc);
  int warmup = o.warmup >= 0 ? o.warmup : DEFAULT_WARMUP;
  const char *slug = what == RUN_COPY ? COPY_SLUG : a->variants[variant].slug;
  result_line res;
  if (o.have_n) {
    case_run c = {a, &o, {"adhoc", o.n, o.have_seed ? o.seed : 1, 0, variant, o.check, NULL, 0}, what, variant,
                  o.reps > 0 ? o.reps : 10, warmup, slug};
    run_case(&c, &res);
    emit(fd, &res);
    return 0;
  }
  int all = o.n_cases == 0; /* no --case and no --n: every case in the table */
  int count = all ? a->n_cases : o.n_cases;
  for (int i = 0; i < count; i++) {
    const hx_case *k = all ? &a->cases[i] : find_case(a, o.cases[i]);
    case_run c = {a, &o, {k->name, k->n, o.have_seed ? o.seed : k->seed, k->param, variant, o.check, NULL, 0}, what,
                  variant, o.reps > 0 ? o.reps : k->reps, warmup, slug};
    run_case(&c, &res);
    emit(fd, &res);
  }
  return 0;
}
