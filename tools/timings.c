/* timings.c: times one reference binary over its case table (the size sweep), writes
 * <dir>/<gpu-slug>.csv and .png, and suggests each perf check's full_ratio (make timings).
 *
 *   timings --ref BIN --conf GRADE_CONF --gpu "NVIDIA H100 80GB HBM3" --dir OUTDIR [--runs K]
 *   timings --plot CSV [--conf GRADE_CONF]
 *
 * For each variant of `BIN --list`, BIN runs every case of its table K times
 * (`--variant V --check --result-fd 3`); each run gives one median per case (the
 * runner's median of the case's reps). A case's spread is its slowest median over
 * its fastest. The grader scores a perf check on the minimum of each side's medians,
 * so a student as fast as the reference lands within that spread of it; the
 * suggested full_ratio follows from the spread by the rule of docs/grading.md,
 * "Statistics of the instructor's tools" (docs/instructor-guide.md, "Calibrating
 * full_ratio", says how to use it).
 *
 * --plot redraws the .png beside a CSV this tool wrote and, with --conf, reprints the
 * suggestions from its best and spread columns. It needs no GPU: the GPU host of a
 * timing session may have no gnuplot. Both modes fill one table (from the runs or from
 * the CSV) and draw the plot and the suggestions from it alone, so they print the same.
 *
 * Exit: 0 done (also when the plot is skipped for want of gnuplot), 1 the reference
 * failed or is wrong, or gnuplot failed on --plot, 2 bad arguments or a bad CSV
 * ("timings: FILE:LINE: why"), 3 no CUDA device (the reference exited 3). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
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

typedef struct row_stats {
  double best, median, worst, spread;
} row_stats;

/* What the CSV holds: filled by a sweep, or read back from its CSV by --plot. */
typedef struct table {
  char gpu[256], assignment[RESULT_NAME_MAX];
  char variants[MAX_VARIANTS][RESULT_NAME_MAX];
  int n_variants;
  char cases[MAX_CASES][RESULT_NAME_MAX];
  unsigned long long n[MAX_CASES];
  int n_cases;
  int runs;
  row_stats rows[MAX_VARIANTS][MAX_CASES]; /* best 0: no row (a CSV may lack some) */
} table;

typedef struct sweep {
  table t;
  double ms[MAX_VARIANTS][MAX_CASES][MAX_RUNS]; /* the median of each run; 0 = none */
} sweep;

#define CSV_HEADER "gpu,assignment,variant,case,n,runs,best_ms,median_ms,worst_ms,spread"
#define CSV_FIELDS 10
/* write_csv's number formats. The sweep rounds its stats to them, so that --plot on
 * the CSV suggests exactly what the sweep did. */
#define MS_FMT "%.6g"
#define SPREAD_FMT "%.4f"

static const char USAGE[] = "usage: timings --ref BIN --conf GRADE_CONF --gpu NAME --dir OUTDIR [--runs K (2..50, default 5)]\n"
                            "       timings --plot CSV [--conf GRADE_CONF]   (redraw CSV's .png, reprint the suggestions; no GPU)\n";

/* full_ratio for a measured spread (docs/grading.md, "Statistics of the instructor's tools"). */
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
static int read_list(const char *ref, double timeout_s, table *t) {
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
    if (sscanf(line, "variant %63s", name) == 1 && strcmp(name, "copy_d2d") && t->n_variants < MAX_VARIANTS)
      snprintf(t->variants[t->n_variants++], RESULT_NAME_MAX, "%s", name);
    else if (sscanf(line, "case %63s %llu", name, &n) == 2 && t->n_cases < MAX_CASES) {
      snprintf(t->cases[t->n_cases], RESULT_NAME_MAX, "%s", name);
      t->n[t->n_cases++] = n;
    }
  }
  free(text);
  if (!t->n_variants || !t->n_cases) {
    fprintf(stderr, "timings: %s --list printed no variants or no cases\n", ref);
    return -1;
  }
  return 0;
}

/* Where name is among n names (a table's variants or cases), or -1. */
static int name_index(const char (*names)[RESULT_NAME_MAX], int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return i;
  return -1;
}

/* One run of variant v over the whole case table. Returns 0, 1 (failed or wrong), 3 (no GPU). */
static int run_variant(const char *ref, double timeout_s, sweep *s, int v, int run) {
  table *t = &s->t;
  char *argv[] = {(char *)ref, "--variant", t->variants[v], "--check", "--result-fd", "3", NULL};
  proc_result *p = run_ref(argv, timeout_s);
  char what[160], err[200];
  int rc = 0;
  if (p->status != PROC_EXITED || p->exit_code != 0) {
    char *e = capture_text(&p->err), *nl = e ? strchr(e, '\n') : NULL;
    if (nl) *nl = 0;
    fprintf(stderr, "timings: %s --variant %s: %s%s%s\n", ref, t->variants[v], proc_describe(p, what, sizeof what),
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
      fprintf(stderr, "timings: %s --variant %s: bad result line (%s): %s\n", ref, t->variants[v], err, line);
      rc = 1;
    } else if ((c = name_index(t->cases, t->n_cases, r.case_name)) < 0) {
      fprintf(stderr, "timings: %s: result for case '%s', which --list does not name\n", ref, r.case_name);
      rc = 1;
    } else if (!r.ok) {
      fprintf(stderr, "timings: %s --variant %s --case %s: the reference is wrong (%llu mismatches): fix it first\n", ref,
              t->variants[v], r.case_name, (unsigned long long)r.mismatches);
      rc = 1;
    } else {
      s->ms[v][c][run] = r.median_ms;
    }
  }
  free(text);
  for (int c = 0; c < t->n_cases && !rc; c++)
    if (!(s->ms[v][c][run] > 0)) {
      fprintf(stderr, "timings: %s --variant %s: no result for case %s\n", ref, t->variants[v], t->cases[c]);
      rc = 1;
    }
  return rc;
}

/* x as the CSV will hold it (fmt is MS_FMT or SPREAD_FMT). */
static double as_written(const char *fmt, double x) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, x);
  return strtod(buf, NULL);
}

/* Best, median and worst of a variant's runs on case c, and their spread. */
static row_stats stats_of(const sweep *s, int v, int c) {
  double ms[MAX_RUNS];
  int runs = s->t.runs;
  memcpy(ms, s->ms[v][c], sizeof(double) * (size_t)runs);
  double best = stats_min(ms, runs), worst = best;
  for (int k = 0; k < runs; k++) worst = ms[k] > worst ? ms[k] : worst;
  return (row_stats){as_written(MS_FMT, best), as_written(MS_FMT, stats_median(ms, runs)), as_written(MS_FMT, worst),
                     as_written(SPREAD_FMT, worst / best)};
}

static int write_csv(const char *path, const table *t) {
  FILE *f = fopen(path, "w");
  if (!f) return fprintf(stderr, "timings: cannot write %s: %s\n", path, strerror(errno)), -1;
  fprintf(f, CSV_HEADER "\n");
  for (int v = 0; v < t->n_variants; v++)
    for (int c = 0; c < t->n_cases; c++) {
      row_stats r = t->rows[v][c];
      fprintf(f, "\"%s\",%s,%s,%s,%llu,%d," MS_FMT "," MS_FMT "," MS_FMT "," SPREAD_FMT "\n", t->gpu, t->assignment, t->variants[v],
              t->cases[c], t->n[c], t->runs, r.best, r.median, r.worst, r.spread);
    }
  if (fclose(f) != 0) return fprintf(stderr, "timings: cannot write %s: %s\n", path, strerror(errno)), -1;
  return 0;
}

/* One row of a CSV into t; on a bad one, says why in why. Each variant and case
 * takes its place in the order it first appears. */
static void parse_row(char *line, table *t, char *why, size_t cap) {
  char *f[CSV_FIELDS], *p = line;
  int k = 0;
  if (*p == '"') { /* the GPU's name is quoted, since it may hold commas */
    char *q = strchr(p + 1, '"');
    if (!q || (q[1] && q[1] != ',')) return (void)snprintf(why, cap, "the gpu field's quote is not closed before a comma");
    *q = 0;
    f[k++] = p + 1;
    p = q[1] ? q + 2 : NULL;
  }
  for (char *field; (field = strsep(&p, ","));) {
    if (k < CSV_FIELDS) f[k] = field;
    k++;
  }
  if (k != CSV_FIELDS) return (void)snprintf(why, cap, "%d field(s), want %d (%s)", k, CSV_FIELDS, CSV_HEADER);

  static const char *const what[CSV_FIELDS] = {"gpu", "assignment", "variant", "case", "n", "runs", "best_ms", "median_ms", "worst_ms",
                                               "spread"};
  for (int i = 1; i <= 3; i++) /* names go into gnuplot's strings and the suggestions' lookups */
    if (!result_name_ok(f[i])) return (void)snprintf(why, cap, "%s '%s' is not 1..63 of [A-Za-z0-9_.^+-]", what[i], f[i]);
  uint64_t n, runs;
  if (result_parse_u64(f[4], &n)) return (void)snprintf(why, cap, "n '%s' is not a whole number", f[4]);
  if (result_parse_u64(f[5], &runs) || runs < 1 || runs > MAX_RUNS)
    return (void)snprintf(why, cap, "runs '%s' is not a whole number in 1..%d", f[5], MAX_RUNS);
  double x[4];
  for (int i = 0; i < 4; i++) {
    char *end;
    x[i] = strtod(f[6 + i], &end);
    if (end == f[6 + i] || *end || !isfinite(x[i]) || x[i] <= 0)
      return (void)snprintf(why, cap, "%s '%s' is not a positive number", what[6 + i], f[6 + i]);
  }

  /* One CSV is one sweep: one GPU, one assignment, one number of runs. */
  if (!t->n_variants) {
    if (strlen(f[0]) >= sizeof t->gpu) return (void)snprintf(why, cap, "the gpu name is over %zu characters", sizeof t->gpu - 1);
    snprintf(t->gpu, sizeof t->gpu, "%s", f[0]);
    snprintf(t->assignment, sizeof t->assignment, "%s", f[1]);
    t->runs = (int)runs;
  } else if (strcmp(f[0], t->gpu) || strcmp(f[1], t->assignment) || (int)runs != t->runs)
    return (void)snprintf(why, cap, "gpu, assignment or runs differ from the first row's (one CSV is one sweep)");
  int v = name_index(t->variants, t->n_variants, f[2]), c = name_index(t->cases, t->n_cases, f[3]);
  if (v < 0 && t->n_variants == MAX_VARIANTS) return (void)snprintf(why, cap, "more than %d variants", MAX_VARIANTS);
  if (c < 0 && t->n_cases == MAX_CASES) return (void)snprintf(why, cap, "more than %d cases", MAX_CASES);
  if (v < 0) snprintf(t->variants[v = t->n_variants++], RESULT_NAME_MAX, "%s", f[2]);
  if (c < 0) snprintf(t->cases[c = t->n_cases++], RESULT_NAME_MAX, "%s", f[3]);
  if (t->rows[v][c].best > 0) return (void)snprintf(why, cap, "a second row for %s %s", f[2], f[3]);
  t->n[c] = n;
  t->rows[v][c] = (row_stats){x[0], x[1], x[2], x[3]};
}

/* Reads a CSV that write_csv wrote into t. Returns 0, or -1 after one line
 * "timings: FILE:LINE: why". */
static int read_csv(const char *path, table *t) {
  FILE *f = fopen(path, "r");
  if (!f) return fprintf(stderr, "timings: cannot read %s: %s\n", path, strerror(errno)), -1;
  char line[1024], why[300] = "";
  int no = 0;
  while (!why[0] && fgets(line, sizeof line, f)) {
    no++;
    size_t len = strcspn(line, "\r\n");
    if (!line[len] && !feof(f)) snprintf(why, sizeof why, "a line over %zu characters", sizeof line - 2);
    line[len] = 0;
    if (why[0] || (no > 1 && !line[0])) continue; /* a blank line is no row */
    if (no == 1) {
      if (strcmp(line, CSV_HEADER)) snprintf(why, sizeof why, "want the header %s", CSV_HEADER);
    } else
      parse_row(line, t, why, sizeof why);
  }
  fclose(f);
  if (!why[0] && !t->n_variants) { /* said of the line where the first row should be */
    snprintf(why, sizeof why, "%s", no ? "no rows after the header" : "empty file");
    no++;
  }
  if (why[0]) return fprintf(stderr, "timings: %s:%d: %s\n", path, no, why), -1;
  return 0;
}

/* Best time against n, one line per variant, log-log, read from the CSV. Skipped with
 * a note without gnuplot. Returns 0 (drawn or skipped) or -1 (gnuplot failed). */
static int plot(const char *csv, const char *png, const table *t) {
  char gpu[256];
  snprintf(gpu, sizeof gpu, "%s", t->gpu);
  for (char *c = gpu; *c; c++)
    if (*c == '"' || *c == '\\' || *c == '\'') *c = ' '; /* they would end gnuplot's strings */
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    printf("  plot skipped: gnuplot is not installed (sudo apt-get install -y gnuplot-nox)\n");
    return 0;
  }
  FILE *g = popen("gnuplot", "w");
  if (!g) return printf("  plot skipped: cannot start gnuplot\n"), -1;
  fprintf(g,
          "set terminal pngcairo size 900,560 noenhanced font 'sans,10'\nset output '%s'\n"
          "set datafile separator ','\nset title \"%s reference: best of %d runs per case\\nGPU: %s\"\n"
          "set xlabel 'n (elements)'\nset ylabel 'time (ms)'\nset logscale xy\nset grid\nset key top left\n"
          "plot",
          png, t->assignment, t->runs, gpu);
  for (int v = 0; v < t->n_variants; v++)
    fprintf(g, "%s '%s' using (strcol(3) eq '%s' ? $5 : NaN):7 with points pt 7 title '%s'", v ? "," : "", csv, t->variants[v],
            t->variants[v]);
  fprintf(g, "\n");
  if (pclose(g) != 0) return printf("  plot: gnuplot failed; %s may be missing\n", png), -1;
  printf("  wrote %s\n", png);
  return 0;
}

static void print_suggestions(const assignment_conf *conf, const table *t) {
  printf("  suggested perf thresholds for this GPU (full_ratio = spread + 0.05, rounded up to 0.05, at least 1.05):\n");
  for (int i = 0; i < conf->n_checks; i++) {
    const check_conf *c = &conf->checks[i];
    if (c->kind != KIND_PERF) continue;
    int v = name_index(t->variants, t->n_variants, c->variant), k = name_index(t->cases, t->n_cases, c->cases[0]);
    if (v < 0 || k < 0 || !(t->rows[v][k].best > 0)) {
      printf("  %-20s %s/%s: not in the sweep (check grade.conf)\n", c->name, c->variant, c->cases[0]);
      continue;
    }
    row_stats r = t->rows[v][k];
    printf("  %-20s %s %s: best %.4g ms, spread %.3f -> full_ratio = %.2f (grade.conf: %.2f)%s\n", c->name, c->variant,
           c->cases[0], r.best, r.spread, suggest_ratio(r.spread), c->full_ratio,
           r.spread > 1.10 ? "; noisy: raise runs or reps" : "");
  }
}

/* --plot: the plot and, with a grade.conf, the suggestions, from a CSV this tool wrote. */
static int replot(const char *csv, const char *conf_path) {
  static table t;
  static assignment_conf conf;
  char err[600], png[4096];
  size_t len = strlen(csv);
  if (len < 5 || strcmp(csv + len - 4, ".csv") || len >= sizeof png)
    return fprintf(stderr, "timings: --plot '%s': want a path ending in .csv (the .png goes beside it)\n", csv), 2;
  snprintf(png, sizeof png, "%.*s.png", (int)(len - 4), csv);
  if (conf_path && conf_load(conf_path, &conf, err, sizeof err)) return fprintf(stderr, "timings: %s\n", err), 2;
  if (read_csv(csv, &t)) return 2;
  if (conf_path && strcmp(conf.name, t.assignment))
    return fprintf(stderr, "timings: %s is %s's, but %s times %s\n", conf_path, conf.name, csv, t.assignment), 2;
  printf("%s: %d variant(s) x %d case(s) x %d runs on %s, from %s\n", t.assignment, t.n_variants, t.n_cases, t.runs, t.gpu, csv);
  int rc = plot(csv, png, &t) ? 1 : 0;
  if (conf_path) print_suggestions(&conf, &t);
  return rc;
}

int main(int argc, char **argv) {
  const char *ref = NULL, *conf_path = NULL, *gpu = NULL, *dir = NULL, *csv_in = NULL;
  int runs = 0; /* 0: not given (5) */
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) return fprintf(stderr, "timings: %s needs a value\n%s", argv[i], USAGE), 2;
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "--ref")) ref = v;
    else if (!strcmp(a, "--conf")) conf_path = v;
    else if (!strcmp(a, "--gpu")) gpu = v;
    else if (!strcmp(a, "--dir")) dir = v;
    else if (!strcmp(a, "--plot")) csv_in = v;
    else if (!strcmp(a, "--runs")) {
      char *end;
      runs = (int)strtol(v, &end, 10);
      if (*end || runs < 2 || runs > MAX_RUNS) return fprintf(stderr, "timings: --runs: '%s' is not in 2..%d\n", v, MAX_RUNS), 2;
    } else return fprintf(stderr, "timings: unknown option '%s'\n%s", a, USAGE), 2;
  }
  if (csv_in ? ref || gpu || dir || runs : !ref || !conf_path || !gpu || !dir) return fprintf(stderr, "%s", USAGE), 2;
  if (csv_in) return replot(csv_in, conf_path);
  static assignment_conf conf;
  char err[600], slug[128];
  if (conf_load(conf_path, &conf, err, sizeof err)) return fprintf(stderr, "timings: %s\n", err), 2;
  gpu_slug(gpu, slug, sizeof slug);
  if (!slug[0]) return fprintf(stderr, "timings: --gpu '%s' has no letters or digits to name a file with\n", gpu), 2;

  static sweep s;
  table *t = &s.t;
  snprintf(t->gpu, sizeof t->gpu, "%s", gpu);
  snprintf(t->assignment, sizeof t->assignment, "%s", conf.name);
  t->runs = runs ? runs : 5;
  if (read_list(ref, conf.timeout_s, t)) return 1;
  double timeout = conf.timeout_s * t->n_cases;
  printf("%s: %d variant(s) x %d case(s) x %d runs on %s\n", conf.name, t->n_variants, t->n_cases, t->runs, gpu);
  for (int v = 0; v < t->n_variants; v++)
    for (int k = 0; k < t->runs; k++) {
      int rc = run_variant(ref, timeout, &s, v, k);
      if (rc) return rc;
    }
  for (int v = 0; v < t->n_variants; v++)
    for (int c = 0; c < t->n_cases; c++) t->rows[v][c] = stats_of(&s, v, c);

  char csv[1200], png[1200];
  snprintf(csv, sizeof csv, "%s/%s.csv", dir, slug);
  snprintf(png, sizeof png, "%s/%s.png", dir, slug);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return fprintf(stderr, "timings: cannot create %s: %s\n", dir, strerror(errno)), 1;
  if (write_csv(csv, t)) return 1;
  printf("  wrote %s\n", csv);
  plot(csv, png, t);
  print_suggestions(&conf, t);
  return 0;
}
