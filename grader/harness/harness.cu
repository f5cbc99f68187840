// harness.cu: the driver shared by every assignment's harness (see harness.h).
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// A byte pattern no scan produces by accident on our inputs: every element the
// student forgets to write reads back as 0xA5A5A5A5 and fails the comparison.
static const int POISON_BYTE = 0xA5;
static const int DEFAULT_WARMUP = 2;

void hx_cuda_check(cudaError_t err, const char *what, const char *file, int line) {
  if (err == cudaSuccess) return;
  fprintf(stderr, "%s:%d: %s: CUDA error %s: %s\n", file, line, what, cudaGetErrorName(err),
          cudaGetErrorString(err));
  exit(3);
}

void *hx_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "harness: out of host memory (%zu bytes)\n", bytes);
    exit(3);
  }
  return p;
}

void *hx_dev_malloc(size_t bytes) {
  void *p = NULL;
  CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 4));
  return p;
}

int32_t *hx_random_ints(uint64_t seed, size_t n, int32_t lo, int32_t hi) {
  int32_t *a = (int32_t *)hx_malloc(n * sizeof *a);
  prng_fill_i32(seed, a, n, lo, hi);
  return a;
}

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

static void list(const hx_assignment *a) {
  printf("%s: variants\n", a->name);
  for (int v = 0; v < a->n_variants; v++) printf("  %-28s %s\n", a->variants[v].slug, a->variants[v].summary);
  printf("cases (name n seed reps param)\n");
  for (int c = 0; c < a->n_cases; c++)
    printf("  %-28s %" PRIu64 " %" PRIu64 " %d %" PRIu64 "\n", a->cases[c].name, a->cases[c].n, a->cases[c].seed,
           a->cases[c].reps, a->cases[c].param);
}

static void write_all(int fd, const char *buf, size_t len) {
  while (len) {
    ssize_t w = write(fd, buf, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      fprintf(stderr, "harness: cannot write the result line: %s\n", strerror(errno));
      exit(3);
    }
    buf += w;
    len -= (size_t)w;
  }
}

static void poison(const hx_io *io) {
  for (int i = 0; i < io->n_out; i++)
    CUDA_CHECK(cudaMemset(io->out[i].dev, POISON_BYTE, io->out[i].count * sizeof(int32_t)));
}

// Compares every output with its reference; counts mismatches, notes the first.
static void compare(const hx_io *io, result_line *r) {
  uint64_t base = 0;
  r->mismatches = 0;
  r->first_bad = -1;
  for (int i = 0; i < io->n_out; i++) {
    size_t count = io->out[i].count;
    int32_t *got = (int32_t *)hx_malloc(count * sizeof *got);
    CUDA_CHECK(cudaMemcpy(got, io->out[i].dev, count * sizeof *got, cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < count; k++) {
      if (got[k] == io->out[i].ref[k]) continue;
      if (r->first_bad < 0) r->first_bad = (int64_t)(base + k);
      r->mismatches++;
    }
    base += count;
    free(got);
  }
}

static void write_out(const char *path, const hx_io *io) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "harness: --out %s: %s\n", path, strerror(errno));
    exit(2);
  }
  size_t count = io->n_out ? io->out[0].count : 0;
  int32_t *got = (int32_t *)hx_malloc(count * sizeof *got);
  if (count) CUDA_CHECK(cudaMemcpy(got, io->out[0].dev, count * sizeof *got, cudaMemcpyDeviceToHost));
  if (fwrite(got, sizeof *got, count, f) != count || fclose(f) != 0) {
    fprintf(stderr, "harness: --out %s: write failed\n", path);
    exit(3);
  }
  free(got);
}

// Times `reps` runs of fn(ctx, variant), each after an untimed poison of the
// outputs, with CUDA events around nothing but fn. Warm-up runs first so that
// module loading and first-touch costs stay out of the numbers.
typedef void (*timed_fn)(void *ctx, int variant);

static void time_runs(timed_fn fn, void *ctx, int variant, const hx_io *io, int warmup, int reps, double *median_ms,
                      double *min_ms) {
  for (int w = 0; w < warmup; w++) {
    if (io) poison(io);
    fn(ctx, variant);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  double *ms = (double *)hx_malloc((size_t)reps * sizeof *ms);
  for (int r = 0; r < reps; r++) {
    if (io) poison(io);
    CUDA_CHECK(cudaEventRecord(start));
    fn(ctx, variant);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms[r] = t;
  }
  // Any asynchronous fault in the student's kernels surfaces here at the latest.
  CUDA_CHECK(cudaDeviceSynchronize());
  *min_ms = stats_min(ms, reps);
  *median_ms = stats_median(ms, reps);
  // Event resolution is about half a microsecond; an empty case (n = 0) can
  // read 0 ms, which the protocol rejects as a time, so floor it.
  if (!(*min_ms > 0)) *min_ms = 1e-6;
  if (!(*median_ms > 0)) *median_ms = 1e-6;
  free(ms);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
}

typedef struct bound_run {
  const hx_assignment *a;
  void *state;
} bound_run;

static void call_run(void *ctx, int variant) {
  bound_run *b = (bound_run *)ctx;
  b->a->run(b->state, variant);
}

// Runs one case: untimed setup, timed reps on freshly poisoned outputs, then
// the comparison of the last output with the CPU reference.
static void run_case(const hx_assignment *a, const cli_opts *o, const hx_spec *spec, int reps, result_line *res) {
  hx_io io;
  memset(&io, 0, sizeof io);
  void *state = a->setup(spec, &io);
  if (!state) exit(2);
  bound_run b = {a, state};
  memset(res, 0, sizeof *res);
  time_runs(call_run, &b, spec->variant, &io, o->warmup >= 0 ? o->warmup : DEFAULT_WARMUP, reps, &res->median_ms,
            &res->min_ms);
  snprintf(res->case_name, sizeof res->case_name, "%s", spec->case_name);
  snprintf(res->variant, sizeof res->variant, "%s", a->variants[spec->variant].slug);
  res->n = spec->n;
  res->seed = spec->seed;
  res->reps = reps;
  res->checked = spec->check;
  res->first_bad = res->first_x = res->first_y = -1;
  if (spec->check) compare(&io, res);
  res->ok = res->mismatches == 0;
  res->verified = spec->check ? 1 : 0;
  res->bad_reps = spec->check && !res->ok;
  if (o->out) write_out(o->out, &io);
  a->teardown(state);
}

static void emit(int fd, const result_line *res) {
  char line[RESULT_LINE_MAX];
  int len = result_format(line, sizeof line, res);
  if (len < 0) {
    fprintf(stderr, "harness: result line too long\n");
    exit(3);
  }
  write_all(fd, line, (size_t)len);
  if (res->checked && !res->ok)
    fprintf(stderr, "%s/%s: %" PRIu64 " of %" PRIu64 " outputs wrong, first at index %" PRId64 "\n", res->case_name,
            res->variant, res->mismatches, res->n, res->first_bad);
}

typedef struct copy_ctx {
  void *dst, *src;
  size_t bytes;
} copy_ctx;

static void copy_d2d(void *ctx, int variant) {
  (void)variant;
  copy_ctx *c = (copy_ctx *)ctx;
  CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice));
}

static void bench_row(const char *name, uint64_t n, double ms, double bytes, double copy_ms, const char *ok) {
  printf("%-32s %12" PRIu64 " %10.4f %9.1f %7.2f %4s\n", name, n, ms, bytes / (ms * 1e-3) / 1e9, ms / copy_ms, ok);
}

// --bench: every variant of one case next to a device-to-device copy that moves
// the same bytes (read + written), the practical ceiling for a scan.
static int bench(const hx_assignment *a, const cli_opts *o, const hx_case *k, uint64_t n, uint64_t seed) {
  int reps = o->reps > 0 ? o->reps : 50, warmup = o->warmup >= 0 ? o->warmup : 5;
  double bytes = a->bytes_moved(n);
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  copy_ctx c;
  c.bytes = (size_t)(bytes / 2); // a copy reads and writes each byte: bytes/2 each way
  c.src = hx_dev_malloc(c.bytes);
  c.dst = hx_dev_malloc(c.bytes);
  CUDA_CHECK(cudaMemset(c.src, 1, c.bytes));
  double copy_med, copy_min;
  time_runs(copy_d2d, &c, 0, NULL, warmup, reps, &copy_med, &copy_min);
  CUDA_CHECK(cudaFree(c.src));
  CUDA_CHECK(cudaFree(c.dst));

  printf("# %s bench on %s (sm_%d%d): case %s, median of %d reps after %d warm-up\n", a->name, prop.name, prop.major,
         prop.minor, k ? k->name : "adhoc", reps, warmup);
  printf("# bytes per run: %.0f (%s); GB/s = bytes / median time; x_copy = time / copy time\n", bytes, a->bytes_note);
  printf("%-32s %12s %10s %9s %7s %4s\n", "variant", "n", "median_ms", "GB/s", "x_copy", "ok");
  bench_row("copy_d2d (same bytes)", n, copy_med, bytes, copy_med, "-");
  int all_ok = 1;
  for (int v = 0; v < a->n_variants; v++) {
    hx_spec spec = {k ? k->name : "adhoc", n, seed, k ? k->param : 0, v, 1};
    result_line res;
    cli_opts timed = *o;
    timed.warmup = warmup;
    run_case(a, &timed, &spec, reps, &res);
    bench_row(a->variants[v].slug, n, res.median_ms, bytes, copy_med, res.ok ? "yes" : "NO");
    all_ok &= res.ok;
  }
  fflush(stdout);
  return all_ok ? 0 : 1;
}

int hx_main(int argc, char **argv, const hx_assignment *a) {
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
  int variant = 0;
  if (o.variant && (variant = find_variant(a, o.variant)) < 0) {
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

  int dev_count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&dev_count));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaFree(0)); // create the context now, outside any timing

  if (o.bench) {
    const hx_case *k = o.have_n ? NULL : find_case(a, o.n_cases ? o.cases[0] : a->bench_case);
    if (!o.have_n && !k) {
      fprintf(stderr, "%s: no bench case\n", a->name);
      return 2;
    }
    return bench(a, &o, k, o.have_n ? o.n : k->n, o.have_seed ? o.seed : k ? k->seed : 1);
  }
  result_line res;
  if (o.have_n) {
    hx_spec spec = {"adhoc", o.n, o.have_seed ? o.seed : 1, 0, variant, o.check};
    run_case(a, &o, &spec, o.reps > 0 ? o.reps : 10, &res);
    emit(fd, &res);
    return 0;
  }
  int all = o.n_cases == 0; // no --case and no --n: every case in the table
  int count = all ? a->n_cases : o.n_cases;
  for (int c = 0; c < count; c++) {
    const hx_case *k = all ? &a->cases[c] : find_case(a, o.cases[c]);
    hx_spec spec = {k->name, k->n, o.have_seed ? o.seed : k->seed, k->param, variant, o.check};
    run_case(a, &o, &spec, o.reps > 0 ? o.reps : k->reps, &res);
    emit(fd, &res);
  }
  return 0;
}
