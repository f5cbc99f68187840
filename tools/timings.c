/* timings.c: times one reference binary over its case table (the size sweep), writes
 * <dir>/<gpu-slug>.csv and .png, and suggests each perf check's full_ratio (make timings).
 *
 *   timings --ref BIN --conf GRADE_CONF --gpu "NVIDIA H100 80GB HBM3" --dir OUTDIR [--runs K]
 *
 * For each variant of `BIN --list`, BIN runs every case of its table K times
 * (`--variant V --check --result-fd 3`); each run gives one median per case (the
 * harness's median of the case's reps). A case's spread is its slowest median over
 * its fastest. The grader scores a perf check on the minimum of each side's medians,
 * so a student as fast as the reference lands within that spread of it; the
 * suggested full_ratio is the spread plus 0.05, rounded up to a multiple of 0.05,
 * and never below 1.05 (docs/instructor-guide.md, "Calibrating full_ratio").
 *
 * Exit: 0 done, 1 the reference failed or is wrong, 2 bad arguments, 3 no CUDA
 * device (the reference exited 3). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf.h"
#include "proc.h"
#include "result.h"
#include "stats.h"

#define MAX_VARIANTS 16
#define MAX_CASES 64
#define MAX_RUNS 50

typedef struct sweep {
  char variants[MAX_VARIANTS][RESULT_NAME_MAX];
  int n_variants;
  char cases[MAX_CASES][RESULT_NAME_MAX];
  unsigned long long n[MAX_CASES];
  int n_cases;
  double ms[MAX_VARIANTS][MAX_CASES][MAX_RUNS]; /* the median of each run; 0 = none */
  int runs;
} sweep;

static const char USAGE[] = "usage: timings --ref BIN --conf GRADE_CONF --gpu NAME --dir OUTDIR [--runs K (2..50, default 5)]\n";

/* full_ratio for a measured spread: spread + 0.05, up to a multiple of 0.05, at least 1.05. */
static double suggest_ratio(double spread) {
  double r = ceil((spread + 0.05) * 20 - 1e-9) / 20;
  return r < 1.05 ? 1.05 : r;
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3": a file name for the GPU. */
static void gpu_slug(const char *gpu, char *out, size_t cap) {
  size_t k = 0;
  for (const char *c = gpu; *c && k + 1 < cap; c++) {
    char ch = *c;
    if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
    int alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (alnum) out[k++] = ch;
    else if (k && out[k - 1] != '-') out[k++] = '-';
  }
  while (k && out[k - 1] == '-') k--;
  out[k] = 0;
}

/* Runs BIN with args under a time limit; the caller frees the result. */
static proc_result *run_ref(char *const argv[], double timeout_s) {
  proc_result *p = calloc(1, sizeof *p);
  if (!p) {
    fprintf(stderr, "timings: out of memory\n");
    exit(1);
  }
  proc_run(argv, timeout_s, p);
  return p;
}

/* Reads the variants and cases that `BIN --list` prints. Returns 0 or -1. */
static int read_list(const char *ref, double timeout_s, sweep *s) {
  char *argv[] = {(char *)ref, "--list", NULL};
  proc_result *p = run_ref(argv, timeout_s);
  char what[160];
  if (p->status != PROC_EXITED || p->exit_code != 0) {
    fprintf(stderr, "timings: %s --list: %s\n", ref, proc_describe(p, what, sizeof what));
    free(p);
    return -1;
  }
  char *text = capture_text(&p->out), *save = NULL;
  free(p);
  /* The machine format (docs/grading.md): "variant SLUG SUMMARY" and
   * "case NAME N SEED REPS PARAM" records; copy_d2d is the driver's copy, not
   * the reference's work, and is not timed here. */
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char name[RESULT_NAME_MAX];
    unsigned long long n;
    if (sscanf(line, "variant %63s", name) == 1 && strcmp(name, "copy_d2d") && s->n_variants < MAX_VARIANTS)
      snprintf(s->variants[s->n_variants++], RESULT_NAME_MAX, "%s", name);
    else if (sscanf(line, "case %63s %llu", name, &n) == 2 && s->n_cases < MAX_CASES) {
      snprintf(s->cases[s->n_cases], RESULT_NAME_MAX, "%s", name);
      s->n[s->n_cases++] = n;
    }
  }
  free(text);
  if (!s->n_variants || !s->n_cases) {
    fprintf(stderr, "timings: %s --list printed no variants or no cases\n", ref);
    return -1;
  }
  return 0;
}

static int case_index(const sweep *s, const char *name) {
  for (int c = 0; c < s->n_cases; c++)
    if (!strcmp(s->cases[c], name)) return c;
  return -1;
}

/* One run of variant v over the whole case table. Returns 0, 1 (failed or wrong), 3 (no GPU). */
static int run_variant(const char *ref, double timeout_s, sweep *s, int v, int run) {
  char *argv[] = {(char *)ref, "--variant", s->variants[v], "--check", "--result-fd", "3", NULL};
  proc_result *p = run_ref(argv, timeout_s);
  char what[160], err[200];
  int rc = 0;
  if (p->status != PROC_EXITED || p->exit_code != 0) {
    char *e = capture_text(&p->err), *nl = e ? strchr(e, '\n') : NULL;
    if (nl) *nl = 0;
    fprintf(stderr, "timings: %s --variant %s: %s%s%s\n", ref, s->variants[v], proc_describe(p, what, sizeof what),
            e && *e ? ": " : "", e ? e : "");
    free(e);
    rc = p->status == PROC_EXITED && p->exit_code == 3 ? 3 : 1;
  }
  char *text = capture_text(&p->results), *save = NULL;
  free(p);
  for (char *line = strtok_r(text, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
    result_line r;
    int c;
    if (result_parse(line, &r, err, sizeof err)) {
      fprintf(stderr, "timings: %s --variant %s: bad result line (%s): %s\n", ref, s->variants[v], err, line);
      rc = 1;
    } else if ((c = case_index(s, r.case_name)) < 0) {
      fprintf(stderr, "timings: %s: result for case '%s', which --list does not name\n", ref, r.case_name);
      rc = 1;
    } else if (!r.ok) {
      fprintf(stderr, "timings: %s --variant %s --case %s: the reference is wrong (%llu mismatches): fix it first\n", ref,
              s->variants[v], r.case_name, (unsigned long long)r.mismatches);
      rc = 1;
    } else {
      s->ms[v][c][run] = r.median_ms;
    }
  }
  free(text);
  for (int c = 0; c < s->n_cases && !rc; c++)
    if (!(s->ms[v][c][run] > 0)) {
      fprintf(stderr, "timings: %s --variant %s: no result for case %s\n", ref, s->variants[v], s->cases[c]);
      rc = 1;
    }
  return rc;
}

typedef struct row_stats {
  double best, median, worst, spread;
} row_stats;

static row_stats stats_of(const sweep *s, int v, int c) {
  double t[MAX_RUNS];
  memcpy(t, s->ms[v][c], sizeof(double) * (size_t)s->runs);
  row_stats r;
  r.best = stats_min(t, s->runs);
  r.worst = r.best;
  for (int k = 0; k < s->runs; k++) r.worst = t[k] > r.worst ? t[k] : r.worst;
  r.median = stats_median(t, s->runs);
  r.spread = r.worst / r.best;
  return r;
}

static int write_csv(const char *path, const char *gpu, const char *assignment, const sweep *s) {
  FILE *f = fopen(path, "w");
  if (!f) return fprintf(stderr, "timings: cannot write %s: %s\n", path, strerror(errno)), -1;
  fprintf(f, "gpu,assignment,variant,case,n,runs,best_ms,median_ms,worst_ms,spread\n");
  for (int v = 0; v < s->n_variants; v++)
    for (int c = 0; c < s->n_cases; c++) {
      row_stats r = stats_of(s, v, c);
      fprintf(f, "\"%s\",%s,%s,%s,%llu,%d,%.6g,%.6g,%.6g,%.4f\n", gpu, assignment, s->variants[v], s->cases[c], s->n[c], s->runs,
              r.best, r.median, r.worst, r.spread);
    }
  if (fclose(f) != 0) return fprintf(stderr, "timings: cannot write %s: %s\n", path, strerror(errno)), -1;
  return 0;
}

/* Best time against n, one line per variant, log-log. Skipped with a note without gnuplot. */
static void plot(const char *csv, const char *png, const char *gpu_name, const char *assignment, const sweep *s) {
  char gpu[256];
  snprintf(gpu, sizeof gpu, "%s", gpu_name);
  for (char *c = gpu; *c; c++)
    if (*c == '"' || *c == '\\' || *c == '\'') *c = ' '; /* they would end gnuplot's strings */
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    printf("  plot skipped: gnuplot is not installed (sudo apt-get install -y gnuplot-nox)\n");
    return;
  }
  FILE *g = popen("gnuplot", "w");
  if (!g) return (void)printf("  plot skipped: cannot start gnuplot\n");
  fprintf(g,
          "set terminal pngcairo size 900,560 noenhanced font 'sans,10'\nset output '%s'\n"
          "set datafile separator ','\nset title \"%s reference: best of %d runs per case\\nGPU: %s\"\n"
          "set xlabel 'n (elements)'\nset ylabel 'time (ms)'\nset logscale xy\nset grid\nset key top left\n"
          "plot",
          png, assignment, s->runs, gpu);
  for (int v = 0; v < s->n_variants; v++)
    fprintf(g, "%s '%s' using (strcol(3) eq '%s' ? $5 : NaN):7 with points pt 7 title '%s'", v ? "," : "", csv, s->variants[v],
            s->variants[v]);
  fprintf(g, "\n");
  if (pclose(g) != 0) printf("  plot: gnuplot failed; %s may be missing\n", png);
}

int main(int argc, char **argv) {
  const char *ref = NULL, *conf_path = NULL, *gpu = NULL, *dir = NULL;
  int runs = 5;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) return fprintf(stderr, "timings: %s needs a value\n%s", argv[i], USAGE), 2;
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "--ref")) ref = v;
    else if (!strcmp(a, "--conf")) conf_path = v;
    else if (!strcmp(a, "--gpu")) gpu = v;
    else if (!strcmp(a, "--dir")) dir = v;
    else if (!strcmp(a, "--runs")) {
      char *end;
      runs = (int)strtol(v, &end, 10);
      if (*end || runs < 2 || runs > MAX_RUNS) return fprintf(stderr, "timings: --runs: '%s' is not in 2..%d\n", v, MAX_RUNS), 2;
    } else return fprintf(stderr, "timings: unknown option '%s'\n%s", a, USAGE), 2;
  }
  if (!ref || !conf_path || !gpu || !dir) return fprintf(stderr, "%s", USAGE), 2;
  static assignment_conf conf;
  char err[600], slug[128];
  if (conf_load(conf_path, &conf, err, sizeof err)) return fprintf(stderr, "timings: %s\n", err), 2;
  gpu_slug(gpu, slug, sizeof slug);
  if (!slug[0]) return fprintf(stderr, "timings: --gpu '%s' has no letters or digits to name a file with\n", gpu), 2;

  static sweep s;
  s.runs = runs;
  if (read_list(ref, conf.timeout_s, &s)) return 1;
  double timeout = conf.timeout_s * s.n_cases;
  printf("%s: %d variant(s) x %d case(s) x %d runs on %s\n", conf.name, s.n_variants, s.n_cases, runs, gpu);
  for (int v = 0; v < s.n_variants; v++)
    for (int k = 0; k < runs; k++) {
      int rc = run_variant(ref, timeout, &s, v, k);
      if (rc) return rc;
    }

  char csv[1200], png[1200];
  snprintf(csv, sizeof csv, "%s/%s.csv", dir, slug);
  snprintf(png, sizeof png, "%s/%s.png", dir, slug);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return fprintf(stderr, "timings: cannot create %s: %s\n", dir, strerror(errno)), 1;
  if (write_csv(csv, gpu, conf.name, &s)) return 1;
  printf("  wrote %s\n", csv);
  plot(csv, png, gpu, conf.name, &s);

  printf("  suggested perf thresholds for this GPU (full_ratio = spread + 0.05, rounded up to 0.05, at least 1.05):\n");
  for (int i = 0; i < conf.n_checks; i++) {
    const check_conf *c = &conf.checks[i];
    if (c->kind != KIND_PERF) continue;
    int v = -1, k = case_index(&s, c->cases[0]);
    for (int j = 0; j < s.n_variants; j++)
      if (!strcmp(s.variants[j], c->variant)) v = j;
    if (v < 0 || k < 0) {
      printf("  %-20s %s/%s: not in the sweep (check grade.conf)\n", c->name, c->variant, c->cases[0]);
      continue;
    }
    row_stats r = stats_of(&s, v, k);
    printf("  %-20s %s %s: best %.4g ms, spread %.3f -> full_ratio = %.2f (grade.conf: %.2f)%s\n", c->name, c->variant,
           c->cases[0], r.best, r.spread, suggest_ratio(r.spread), c->full_ratio,
           r.spread > 1.10 ? "; noisy: raise runs or reps" : "");
  }
  return 0;
}
