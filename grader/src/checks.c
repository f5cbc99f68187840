/* checks.c: the check kinds (correct, perf, ptx, sanitizer, model). */
#include "checks.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "ptx.h"
#include "result.h"
#include "score.h"
#include "stats.h"

#define MAX_LINES (CONF_MAX_CASES * 2)

const char *verdict_name(verdict v) {
  static const char *const N[] = {"pass", "partial", "fail", "ungraded", "error", "skipped"};
  return N[v];
}

/* ---------------------------------------------------------------- harness runs */

typedef struct harness_run {
  proc_result p;
  result_line lines[MAX_LINES];
  int n_lines;
  char channel_error[200]; /* the first unparsable line on the result channel */
  char failure[320];       /* one line when the process did not exit 0 */
} harness_run;

/* The end of the last non-empty line of a capture, for "exit 3: <CUDA error>":
 * error messages end lines, so a long line keeps its last 120 characters. */
static void last_line(const capture *c, char *out, size_t cap) {
  char *text = capture_text(c);
  out[0] = 0;
  if (!text) return;
  size_t len = strlen(text);
  while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ')) text[--len] = 0;
  char *start = strrchr(text, '\n');
  start = start ? start + 1 : text;
  size_t n = strlen(start);
  snprintf(out, cap, "%s%s", n > 120 ? "..." : "", n > 120 ? start + n - 120 : start);
  for (char *s = out; *s; s++)
    if ((unsigned char)*s < 0x20) *s = ' ';
  free(text);
}

static void parse_channel(harness_run *h) {
  char *text = capture_text(&h->p.results);
  if (!text) return;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char err[160];
    if (h->n_lines == MAX_LINES) {
      if (!h->channel_error[0]) snprintf(h->channel_error, sizeof h->channel_error, "more than %d result lines", MAX_LINES);
      break;
    }
    if (result_parse(line, &h->lines[h->n_lines], err, sizeof err) == 0) h->n_lines++;
    else if (!h->channel_error[0]) snprintf(h->channel_error, sizeof h->channel_error, "garbage on the result channel (%s)", err);
  }
  free(text);
}

/* Runs bin on the check's cases, under `prefix` (a tool and its options, NULL-
 * terminated) when given. */
static harness_run *run_harness(const assignment_ctx *a, const char *bin, const check_conf *c, char *const *prefix, int reps) {
  harness_run *h = calloc(1, sizeof *h);
  if (!h) {
    fprintf(stderr, "grade: out of memory\n");
    exit(1);
  }
  char cases[CONF_MAX_CASES * CONF_NAME_MAX], seed[32], reps_s[16];
  cases[0] = 0;
  for (int i = 0; i < c->n_cases; i++) {
    if (i) strcat(cases, ",");
    strcat(cases, c->cases[i]);
  }
  snprintf(seed, sizeof seed, "%" PRIu64, a->env->seed);
  snprintf(reps_s, sizeof reps_s, "%d", reps);
  char fd[8];
  snprintf(fd, sizeof fd, "%d", PROC_RESULT_FD);
  char *argv[48];
  int n = 0;
  for (int i = 0; prefix && prefix[i] && n < 24; i++) argv[n++] = prefix[i];
  argv[n++] = (char *)bin;
  argv[n++] = "--variant";
  argv[n++] = (char *)c->variant;
  argv[n++] = "--case";
  argv[n++] = cases;
  argv[n++] = "--seed";
  argv[n++] = seed;
  argv[n++] = "--check";
  argv[n++] = "--result-fd";
  argv[n++] = fd;
  if (reps > 0) {
    argv[n++] = "--reps";
    argv[n++] = reps_s;
  }
  if (prefix) { /* tools are slow: one rep, no warm-up */
    argv[n++] = "--warmup";
    argv[n++] = "0";
  }
  argv[n] = NULL;
  proc_run(argv, c->timeout_s * a->env->timeout_scale, &h->p);
  parse_channel(h);
  if (!(h->p.status == PROC_EXITED && h->p.exit_code == 0)) {
    char what[128], tail[220];
    proc_describe(&h->p, what, sizeof what);
    last_line(&h->p.err, tail, sizeof tail);
    if (h->p.status == PROC_EXITED && h->p.exit_code == 3 && !prefix) snprintf(what, sizeof what, "CUDA error (exit 3)");
    if (h->p.status == PROC_EXITED && h->p.exit_code == 2) snprintf(what, sizeof what, "bad arguments (exit 2)");
    snprintf(h->failure, sizeof h->failure, "%s%s%s", what, tail[0] ? ": " : "", tail);
  }
  return h;
}

static const result_line *find_result(const harness_run *h, const char *case_name) {
  for (int i = 0; i < h->n_lines; i++)
    if (!strcmp(h->lines[i].case_name, case_name)) return &h->lines[i];
  return NULL;
}

static int count_results(const harness_run *h, const char *case_name) {
  int n = 0;
  for (int i = 0; i < h->n_lines; i++) n += !strcmp(h->lines[i].case_name, case_name);
  return n;
}

/* Judges one case of a student run. ref (may be NULL) is the reference's
 * result for the same case and seed. Returns 1 when correct, else 0 with why. */
static int judge_case(const harness_run *h, const check_conf *c, const char *case_name, const result_line *ref,
                      char *why, size_t cap) {
  const result_line *r = find_result(h, case_name);
  if (!r) {
    if (h->failure[0]) snprintf(why, cap, "no result: %s", h->failure);
    else if (h->channel_error[0]) snprintf(why, cap, "no result: %s", h->channel_error);
    else snprintf(why, cap, "no result line for this case");
    return 0;
  }
  if (count_results(h, case_name) > 1) return snprintf(why, cap, "more than one result line for this case"), 0;
  if (strcmp(r->variant, c->variant)) return snprintf(why, cap, "result is for variant '%s', not '%s'", r->variant, c->variant), 0;
  if (r->seed != (ref ? ref->seed : r->seed)) return snprintf(why, cap, "result has seed %" PRIu64 ", not %" PRIu64, r->seed, ref->seed), 0;
  if (ref && r->n != ref->n) return snprintf(why, cap, "result has n=%" PRIu64 ", the case has n=%" PRIu64, r->n, ref->n), 0;
  if (!r->checked) return snprintf(why, cap, "result was not checked against the CPU reference"), 0;
  if (!r->ok)
    return snprintf(why, cap, "wrong: %" PRIu64 " of %" PRIu64 " outputs differ, first at index %" PRId64, r->mismatches, r->n,
                    r->first_bad), 0;
  snprintf(why, cap, "ok");
  return 1;
}

/* Checks that the reference run verified every case; else says why not. */
static int reference_sane(const harness_run *h, const check_conf *c, char *why, size_t cap) {
  for (int i = 0; i < c->n_cases; i++) {
    char w[300];
    if (!judge_case(h, c, c->cases[i], NULL, w, sizeof w))
      return snprintf(why, cap, "reference broken on case %s: %s", c->cases[i], w), 0;
  }
  if (h->failure[0]) return snprintf(why, cap, "reference broken: %s", h->failure), 0;
  return 1;
}

static void harness_free(harness_run *h) { free(h); }

/* ---------------------------------------------------------------- check kinds */

typedef struct story {
  char *buf;
  size_t len;
  FILE *f;
} story;

static void story_open(story *s) {
  s->buf = NULL;
  s->len = 0;
  s->f = open_memstream(&s->buf, &s->len);
}

static void finish(check_result *r, story *s, verdict v, double score, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->reason, sizeof r->reason, fmt, ap);
  va_end(ap);
  r->v = v;
  r->score = score_round(score);
  if (s->f) {
    fclose(s->f);
    r->output = s->buf;
  }
  if (!r->output) r->output = strdup(r->reason);
}

static void run_correct(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  harness_run *ref = run_harness(a, a->reference, c, NULL, 1);
  char why[400];
  if (!reference_sane(ref, c, why, sizeof why)) {
    fprintf(s->f, "%s\n", why);
    harness_free(ref);
    return finish(r, s, V_ERROR, 0, "%s", why);
  }
  harness_run *st = run_harness(a, a->student, c, NULL, 1);
  int passed = 0;
  char first_bad[400] = "";
  fprintf(s->f, "variant %s, seed %" PRIu64 "\n", c->variant, a->env->seed);
  for (int i = 0; i < c->n_cases; i++) {
    int ok = judge_case(st, c, c->cases[i], find_result(ref, c->cases[i]), why, sizeof why);
    passed += ok;
    fprintf(s->f, "  %-12s %s\n", c->cases[i], why);
    if (!ok && !first_bad[0]) snprintf(first_bad, sizeof first_bad, "%s: %s", c->cases[i], why);
  }
  if (st->failure[0]) fprintf(s->f, "student run: %s\n", st->failure);
  harness_free(ref);
  harness_free(st);
  double score = score_fraction(c->points, passed, c->n_cases);
  if (passed == c->n_cases) return finish(r, s, V_PASS, score, "%d/%d cases correct", passed, c->n_cases);
  finish(r, s, passed ? V_PARTIAL : V_FAIL, score, "%d/%d cases correct; %s", passed, c->n_cases, first_bad);
}

static void run_perf(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  double t_ref[50], t_st[50];
  char why[400];
  const char *k = c->cases[0];
  fprintf(s->f, "case %s, variant %s, seed %" PRIu64 ", %d alternating runs per side\n", k, c->variant, a->env->seed, c->runs);
  for (int i = 0; i < c->runs; i++) {
    /* Reference and student alternate so both see the same GPU clocks and
     * temperature; each side keeps the minimum of its medians. */
    harness_run *ref = run_harness(a, a->reference, c, NULL, c->reps);
    if (!reference_sane(ref, c, why, sizeof why)) {
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      harness_free(ref);
      return finish(r, s, V_ERROR, 0, "%s", why);
    }
    const result_line *rl = find_result(ref, k);
    t_ref[i] = rl->median_ms;
    harness_run *st = run_harness(a, a->student, c, NULL, c->reps);
    int ok = judge_case(st, c, k, rl, why, sizeof why);
    if (ok && st->failure[0]) ok = 0, snprintf(why, sizeof why, "%s", st->failure);
    t_st[i] = ok ? find_result(st, k)->median_ms : 0;
    harness_free(ref);
    harness_free(st);
    if (!ok) {
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      return finish(r, s, V_FAIL, 0, "not timed: %s", why);
    }
    fprintf(s->f, "run %d: reference %.4f ms, student %.4f ms (medians)\n", i + 1, t_ref[i], t_st[i]);
  }
  r->has_perf = 1;
  r->t_ref = stats_min(t_ref, c->runs);
  r->t_student = stats_min(t_st, c->runs);
  double score = score_perf(c->points, c->full_ratio, r->t_student, r->t_ref, 1);
  double ratio = r->t_student / r->t_ref;
  fprintf(s->f, "student %.4f ms, reference %.4f ms: %.2fx the reference (full points up to %.2fx)\n", r->t_student, r->t_ref,
          ratio, c->full_ratio);
  verdict v = score >= c->points ? V_PASS : V_PARTIAL;
  finish(r, s, v, score, "%.4f ms vs reference %.4f ms = %.2fx (full points up to %.2fx)", r->t_student, r->t_ref, ratio, c->full_ratio);
}

static void run_ptx(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  char err[400];
  long n = ptx_count(a->ptx, c->kernel, c->pattern, err, sizeof err);
  if (n < 0) {
    fprintf(s->f, "%s\n", err);
    return finish(r, s, V_FAIL, 0, "%s", err);
  }
  char want[64];
  if (c->min >= 0 && c->max >= 0) snprintf(want, sizeof want, c->min == c->max ? "exactly %ld" : "%ld to %ld", c->min, c->max);
  else if (c->min >= 0) snprintf(want, sizeof want, "at least %ld", c->min);
  else snprintf(want, sizeof want, "at most %ld", c->max);
  if (c->min == c->max) snprintf(want, sizeof want, "exactly %ld", c->min);
  int ok = (c->min < 0 || n >= c->min) && (c->max < 0 || n <= c->max);
  fprintf(s->f, "kernel %s: %ld PTX lines match /%s/ (want %s)\n", c->kernel, n, c->pattern, want);
  finish(r, s, ok ? V_PASS : V_FAIL, ok ? c->points : 0, "%s: %ld matching PTX lines, want %s", c->kernel, n, want);
}

/* The sanitizer's own report lines ("========= Error: ...") for the output. */
static void sanitizer_lines(const capture *c, FILE *f, char *first, size_t cap) {
  char *text = capture_text(c);
  int shown = 0;
  first[0] = 0;
  char *save = NULL;
  for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
    if (strncmp(line, "=========", 9) != 0) continue;
    if (!first[0] && (strstr(line, "rror") || strstr(line, "azard") || strstr(line, "Race") || strstr(line, "Invalid")))
      snprintf(first, cap, "%.160s", line + 9 + strspn(line + 9, " "));
    if (shown++ < 24) fprintf(f, "%s\n", line);
  }
  free(text);
}

static void run_sanitizer(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  if (!a->env->sanitizer[0]) {
    fprintf(s->f, "compute-sanitizer not found (it ships with the CUDA Toolkit)\n");
    return finish(r, s, V_UNGRADED, 0, "ungraded: compute-sanitizer not found");
  }
  char *prefix[] = {(char *)a->env->sanitizer, "--tool", (char *)c->tool, "--error-exitcode", "99", "--print-limit", "12", NULL};
  harness_run *st = run_harness(a, a->student, c, prefix, 1);
  char first[200], why[400];
  fprintf(s->f, "compute-sanitizer --tool %s, variant %s, cases %d, seed %" PRIu64 "\n", c->tool, c->variant, c->n_cases, a->env->seed);
  sanitizer_lines(&st->p.out, s->f, first, sizeof first);
  int clean = st->p.status == PROC_EXITED && st->p.exit_code == 0;
  int reported = st->p.status == PROC_EXITED && st->p.exit_code == 99;
  int missing = 0;
  for (int i = 0; i < c->n_cases; i++) missing += find_result(st, c->cases[i]) == NULL;
  if (clean && !missing) {
    harness_free(st);
    return finish(r, s, V_PASS, c->points, "%s clean", c->tool);
  }
  if (reported) snprintf(why, sizeof why, "%s reports: %s", c->tool, first[0] ? first : "errors (see output)");
  else if (st->failure[0]) snprintf(why, sizeof why, "under %s: %s", c->tool, st->failure);
  else snprintf(why, sizeof why, "under %s: %d of %d cases gave no result", c->tool, missing, c->n_cases);
  if (st->failure[0]) fprintf(s->f, "student run: %s\n", st->failure);
  harness_free(st);
  finish(r, s, V_FAIL, 0, "%s", why);
}

/* A model states a failed case's verdict in its own words on a stdout line
 * "CASE: ..." ("banks: 24 of 27 steps have a bank conflict"), which says more
 * than "wrong: M of N outputs differ": use it as the reason when there is one. */
static void model_verdict(const char *text, const char *name, char *why, size_t cap) {
  size_t len = strlen(name);
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    if (!strncmp(line, name, len) && line[len] == ':' && line[len + 1] == ' ') {
      const char *say = line + len + 2;
      snprintf(why, cap, "%.*s", (int)(end ? (size_t)(end - say) : strlen(say)), say);
      return;
    }
    line = end ? end + 1 : NULL;
  }
}

/* A course-owned CPU program (assignments/NN/model.cu) built with the student's
 * file evaluates it without a GPU, e.g. the bank-conflict model of 03. It
 * speaks the harness protocol; ok=0 means the model found a violation. */
static void run_model(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  char why[400];
  if (access(a->model, X_OK) != 0) {
    fprintf(s->f, "model program %s is missing (does the student file compile?)\n", a->model);
    return finish(r, s, V_FAIL, 0, "model program missing");
  }
  harness_run *st = run_harness(a, a->model, c, NULL, 0);
  char *text = capture_text(&st->p.out);
  int passed = 0;
  char first_bad[400] = "";
  for (int i = 0; i < c->n_cases; i++) {
    int ok = judge_case(st, c, c->cases[i], NULL, why, sizeof why);
    if (!ok && !strncmp(why, "wrong:", 6)) model_verdict(text, c->cases[i], why, sizeof why);
    passed += ok;
    fprintf(s->f, "  %-16s %s\n", c->cases[i], why);
    if (!ok && !first_bad[0]) snprintf(first_bad, sizeof first_bad, "%s: %s", c->cases[i], why);
  }
  /* The model explains itself on stdout (per-step conflict tables). */
  if (text && *text) fprintf(s->f, "%s", text);
  free(text);
  harness_free(st);
  double score = score_fraction(c->points, passed, c->n_cases);
  if (passed == c->n_cases) return finish(r, s, V_PASS, score, "%d/%d model cases pass", passed, c->n_cases);
  finish(r, s, passed ? V_PARTIAL : V_FAIL, score, "%d/%d model cases pass; %s", passed, c->n_cases, first_bad);
}

/* Sums the values ncu printed (--csv) for the listed metrics. Returns the
 * number of metrics found. */
static int ncu_values(const capture *c, const char *metrics, double *sum) {
  char *text = capture_text(c), *save = NULL, want[CONF_TEXT_MAX + 4];
  int found = 0;
  *sum = 0;
  char list[CONF_TEXT_MAX], *msave = NULL;
  snprintf(list, sizeof list, "%s", metrics);
  for (char *m = strtok_r(list, ",", &msave); m; m = strtok_r(NULL, ",", &msave)) {
    snprintf(want, sizeof want, "\"%s\"", m);
    char *copy = strdup(text ? text : "");
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      if (!strstr(line, want)) continue;
      /* "Metric Value" is the last quoted field; it may hold thousands separators. */
      char *close = strrchr(line, '"');
      if (!close || close == line) continue;
      *close = 0;
      char *open = strrchr(line, '"');
      if (!open) continue;
      char digits[64];
      size_t k = 0;
      for (char *d = open + 1; *d && k + 1 < sizeof digits; d++)
        if ((*d >= '0' && *d <= '9') || *d == '.') digits[k++] = *d;
      digits[k] = 0;
      if (!k) continue;
      *sum += strtod(digits, NULL);
      found++;
      break;
    }
    free(copy);
  }
  free(text);
  return found;
}

/* An Nsight Compute metric of one kernel launch, e.g. shared-memory bank
 * conflicts. Where ncu is absent or may not read the counters, the check is
 * ungraded with a note, never failed or passed. */
static void run_metric(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  if (!a->env->ncu[0]) {
    fprintf(s->f, "ncu (Nsight Compute) not found; it ships with the CUDA Toolkit\n");
    return finish(r, s, V_UNGRADED, 0, "ungraded: ncu not found");
  }
  char kernel[CONF_NAME_MAX + 8];
  snprintf(kernel, sizeof kernel, "%s", c->kernel);
  char *prefix[] = {(char *)a->env->ncu, "--metrics", (char *)c->metric, "--kernel-name", kernel, "--launch-count", "1",
                    "--csv", "--print-units", "base", NULL};
  harness_run *st = run_harness(a, a->student, c, prefix, 1);
  char *out = capture_text(&st->p.out), *err = capture_text(&st->p.err);
  int no_perm = (out && strstr(out, "ERR_NVGPUCTRPERM")) || (err && strstr(err, "ERR_NVGPUCTRPERM"));
  free(out);
  free(err);
  double value;
  int n_metrics = 1;
  for (const char *m = c->metric; *m; m++) n_metrics += *m == ',';
  int found = ncu_values(&st->p.out, c->metric, &value);
  fprintf(s->f, "ncu --metrics %s --kernel-name %s, variant %s, case %s\n", c->metric, c->kernel, c->variant, c->cases[0]);
  if (no_perm) {
    harness_free(st);
    fprintf(s->f, "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM)\n");
    return finish(r, s, V_UNGRADED, 0, "ungraded: ncu cannot read the GPU counters on this machine");
  }
  if (found != n_metrics) {
    char why[400];
    snprintf(why, sizeof why, "%s", st->failure[0] ? st->failure : "ncu printed no value (kernel not launched?)");
    harness_free(st);
    fprintf(s->f, "%s\n", why);
    return finish(r, s, V_FAIL, 0, "no metric value: %s", why);
  }
  harness_free(st);
  int ok = (c->min < 0 || value >= c->min) && (c->max < 0 || value <= c->max);
  fprintf(s->f, "value %.0f (want %s%ld%s%ld)\n", value, c->min >= 0 ? ">= " : "", c->min >= 0 ? c->min : 0,
          c->max >= 0 ? ", <= " : "", c->max >= 0 ? c->max : 0);
  /* The reason names the first metric and counts the rest, to stay one short line. */
  char shown[CONF_TEXT_MAX];
  snprintf(shown, sizeof shown, "%s", c->metric);
  char *comma = strchr(shown, ',');
  if (comma) snprintf(comma, sizeof shown - (size_t)(comma - shown), " + %d more", n_metrics - 1);
  finish(r, s, ok ? V_PASS : V_FAIL, ok ? c->points : 0, "ncu: %.0f, want %s %ld (%s)", value,
         c->max >= 0 ? "at most" : "at least", c->max >= 0 ? c->max : c->min, shown);
}

/* ---------------------------------------------------------------- entry points */

static int executable(const char *path, char *why, size_t cap, const char *what) {
  struct stat st;
  if (stat(path, &st) != 0) return snprintf(why, cap, "%s %s is missing", what, path), 0;
  if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) return snprintf(why, cap, "%s %s is not executable", what, path), 0;
  return 1;
}

/* The compiler's error lines from a build log, for "does not compile". */
static void compile_errors(const char *log, char *out, size_t cap) {
  FILE *f = fopen(log, "r");
  size_t len = (size_t)snprintf(out, cap, "does not compile");
  if (!f) return;
  char line[512];
  int shown = 0;
  while (fgets(line, sizeof line, f) && shown < 12 && len + 2 < cap) {
    if (!strstr(line, "error") && !shown) continue; /* start at the first error */
    if (!shown++) len += (size_t)snprintf(out + len, cap - len, ":\n");
    len += (size_t)snprintf(out + len, cap - len, "%s", line);
    if (len >= cap) len = cap - 1;
  }
  fclose(f);
}

void assignment_prepare(assignment_ctx *ctx, const grade_env *env, const assignment_conf *conf) {
  memset(ctx, 0, sizeof *ctx);
  ctx->env = env;
  ctx->conf = conf;
  snprintf(ctx->dir, sizeof ctx->dir, "%s/assignments/%s", env->root, conf->name);
  snprintf(ctx->student, sizeof ctx->student, "%s/build/%s/%s/harness", env->root, env->src, conf->name);
  snprintf(ctx->ptx, sizeof ctx->ptx, "%s/build/%s/%s/harness.ptx", env->root, env->src, conf->name);
  snprintf(ctx->model, sizeof ctx->model, "%s/build/%s/%s/model", env->root, env->src, conf->name);
  snprintf(ctx->build_log, sizeof ctx->build_log, "%s/build/%s/%s/build.log", env->root, env->src, conf->name);
  snprintf(ctx->reference, sizeof ctx->reference, "%s/assignments/%s/ref/reference", env->root, conf->name);

  ctx->student_ok = executable(ctx->student, ctx->student_error, sizeof ctx->student_error, "student binary");
  if (!ctx->student_ok && access(ctx->build_log, R_OK) == 0) compile_errors(ctx->build_log, ctx->student_error, sizeof ctx->student_error);

  if (!env->have_gpu) return; /* the reference only matters for checks that run */
  if (!executable(ctx->reference, ctx->reference_error, sizeof ctx->reference_error, "reference binary")) {
    strncat(ctx->reference_error, " (run `make reference`)", sizeof ctx->reference_error - strlen(ctx->reference_error) - 1);
    return;
  }
  /* It must start and describe this assignment. */
  char *argv[] = {ctx->reference, "--list", NULL};
  proc_result *p = calloc(1, sizeof *p);
  proc_run(argv, 20 * env->timeout_scale, p);
  char what[128];
  char *out = capture_text(&p->out);
  size_t nlen = strlen(conf->name);
  if (!(p->status == PROC_EXITED && p->exit_code == 0))
    snprintf(ctx->reference_error, sizeof ctx->reference_error, "reference binary does not start: %s", proc_describe(p, what, sizeof what));
  else if (!out || strncmp(out, conf->name, nlen) || out[nlen] != ':')
    snprintf(ctx->reference_error, sizeof ctx->reference_error, "reference binary %s is not the harness of %s", ctx->reference, conf->name);
  else
    ctx->reference_ok = 1;
  free(out);
  free(p);
}

void check_run(const assignment_ctx *a, const check_conf *c, check_result *r) {
  memset(r, 0, sizeof *r);
  r->conf = c;
  r->max = c->points;
  story s;
  story_open(&s);
  if (proc_interrupted) return finish(r, &s, V_SKIPPED, 0, "not run: grading was interrupted");
  if (conf_kind_needs_gpu(c->kind) && !a->env->have_gpu) {
    fprintf(s.f, "This check needs a CUDA GPU: %s\n", a->env->gpu_note);
    return finish(r, &s, V_UNGRADED, 0, "ungraded: no GPU");
  }
  if (!a->student_ok) {
    fprintf(s.f, "%s\n", a->student_error);
    char first[200];
    snprintf(first, sizeof first, "%s", a->student_error);
    char *nl = strchr(first, '\n');
    if (nl) *nl = 0;
    const char *colon = strstr(a->student_error, ":\n");
    if (colon) { /* "does not compile: <first compiler error>" */
      char err[160];
      snprintf(err, sizeof err, "%s", colon + 2);
      if ((nl = strchr(err, '\n'))) *nl = 0;
      snprintf(first, sizeof first, "does not compile: %s", err);
    }
    return finish(r, &s, V_FAIL, 0, "%s", first);
  }
  if (c->kind == KIND_CORRECT || c->kind == KIND_PERF) {
    if (!a->reference_ok) {
      fprintf(s.f, "%s\n", a->reference_error);
      return finish(r, &s, V_ERROR, 0, "not scored: %s", a->reference_error);
    }
  }
  switch (c->kind) {
  case KIND_CORRECT: run_correct(a, c, r, &s); break;
  case KIND_PERF: run_perf(a, c, r, &s); break;
  case KIND_PTX: run_ptx(a, c, r, &s); break;
  case KIND_MODEL: run_model(a, c, r, &s); break;
  case KIND_METRIC: run_metric(a, c, r, &s); break;
  default: run_sanitizer(a, c, r, &s); break;
  }
  if (proc_interrupted && r->v != V_PASS) {
    free(r->output);
    r->output = NULL;
    story s2 = {0};
    finish(r, &s2, V_SKIPPED, 0, "not finished: grading was interrupted");
  }
}
