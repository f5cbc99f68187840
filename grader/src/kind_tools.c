/* kind_tools.c: the check kinds that read a tool's verdict rather than compare
 * against the reference: ptx (PTX pattern counts), sanitizer
 * (compute-sanitizer), model (a CPU model of the student's code), metric (ncu). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs.h"
#include "kinds.h"
#include "ptx.h"
#include "score.h"
#include "tool_output.h"

void kind_ptx_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  char err[400], want[64];
  long n = ptx_count(a->ptx, c->kernel, c->pattern, err, sizeof err);
  if (n < 0) {
    fprintf(s->f, "%s\n", err);
    return check_finish(r, s, V_FAIL, 0, "%s", err);
  }
  score_describe_bounds(c->min, c->max, want, sizeof want);
  int ok = score_in_bounds((double)n, c->min, c->max);
  fprintf(s->f, "kernel %s: %ld PTX lines match /%s/ (want %s)\n", c->kernel, n, c->pattern, want);
  check_finish(r, s, ok ? V_PASS : V_FAIL, score_all_or_nothing(c->points, ok), "%s: %ld matching PTX lines, want %s", c->kernel, n, want);
}

void kind_sanitizer_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  if (!a->env->sanitizer[0]) {
    fprintf(s->f, "compute-sanitizer not found (it ships with the CUDA Toolkit)\n");
    return check_finish(r, s, V_UNGRADED, 0, "ungraded: compute-sanitizer not found");
  }
  char *prefix[] = {(char *)a->env->sanitizer, "--tool", (char *)c->tool, "--error-exitcode", "99", "--print-limit", "12", NULL};
  run_args args = {.bin = a->student, .seed = a->env->seed, .reps = 1, .batch = 1, .prefix = prefix, .story = s->f};
  run_record *st = run_cases(a, c, &args);
  char first[200], why[400];
  fprintf(s->f, "compute-sanitizer --tool %s, variant %s, cases %d, seed %" PRIu64 "\n", c->tool, c->variant, c->n_cases, a->env->seed);
  output_sanitizer_lines(&st->p.out, s->f, first, sizeof first);
  int clean = st->p.status == PROC_EXITED && st->p.exit_code == 0;
  int reported = st->p.status == PROC_EXITED && st->p.exit_code == 99;
  int missing = 0;
  for (int i = 0; i < c->n_cases; i++) missing += run_find(st, c->cases[i]) == NULL;
  int ok = clean && !missing;
  if (ok) snprintf(why, sizeof why, "%s clean", c->tool);
  else if (reported) snprintf(why, sizeof why, "%s reports: %s", c->tool, first[0] ? first : "errors (see output)");
  else if (st->failure[0]) snprintf(why, sizeof why, "under %s: %s", c->tool, st->failure);
  else snprintf(why, sizeof why, "under %s: %d of %d cases gave no result", c->tool, missing, c->n_cases);
  if (!ok && st->failure[0]) fprintf(s->f, "student run: %s\n", st->failure);
  free(st);
  check_finish(r, s, ok ? V_PASS : V_FAIL, score_all_or_nothing(c->points, ok), "%s", why);
}

/* A course-owned CPU program (the model grade.conf declares, judge/NAME.cu) built with the
 * student's file evaluates it without a GPU, e.g. a bank-conflict model. It
 * speaks the runner protocol; ok=0 means the model found a violation, and the
 * model's own line "CASE: ..." on stdout says which. */
void kind_model_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  char why[400];
  if (access(a->model, X_OK) != 0) {
    fprintf(s->f, "model program %s is missing (does the student file compile?)\n", a->model);
    return check_finish(r, s, V_FAIL, 0, "model program missing");
  }
  run_args args = {.bin = a->model, .seed = a->env->seed, .direct = 1};
  run_record *st = run_cases(a, c, &args);
  char *text = capture_text(&st->p.out);
  run_want want = {.variant = c->variant};
  int passed = 0;
  char first_bad[400] = "";
  for (int i = 0; i < c->n_cases; i++) {
    int ok = run_verdict(st, c->cases[i], &want, why, sizeof why);
    if (!ok && !strncmp(why, "wrong", 5)) output_model_verdict(text, c->cases[i], why, sizeof why);
    passed += ok;
    fprintf(s->f, "  %-16s %s\n", c->cases[i], why);
    if (!ok && !first_bad[0]) snprintf(first_bad, sizeof first_bad, "%s: %s", c->cases[i], why);
  }
  if (text && *text) fprintf(s->f, "%s", text); /* the model explains itself (per-step conflict tables) */
  free(text);
  free(st);
  double score = score_fraction(c->points, passed, c->n_cases);
  if (passed == c->n_cases) return check_finish(r, s, V_PASS, score, "%d/%d model cases pass", passed, c->n_cases);
  check_finish(r, s, passed ? V_PARTIAL : V_FAIL, score, "%d/%d model cases pass; %s", passed, c->n_cases, first_bad);
}

/* The first line of text that starts with "==ERROR==" (ncu's errors), without it, into out. */
static void first_ncu_error(const char *text, char *out, size_t cap) {
  for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (strncmp(p, "==ERROR== ", 10)) continue;
    const char *e = strchr(p, '\n');
    snprintf(out, cap, "%.*s", (int)(e ? e - p - 10 : (long)strlen(p + 10)), p + 10);
    return;
  }
}

/* An Nsight Compute metric of one kernel launch, e.g. shared-memory bank
 * conflicts. Where ncu is absent or may not read the counters, the check is
 * ungraded with a note, never failed or passed. */
void kind_metric_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  if (!a->env->ncu[0]) {
    fprintf(s->f, "ncu (Nsight Compute) not found; it ships with the CUDA Toolkit\n");
    return check_finish(r, s, V_UNGRADED, 0, "ungraded: ncu not found");
  }
  char kernel[CONF_NAME_MAX + 8];
  snprintf(kernel, sizeof kernel, "%s", c->kernel);
  char *prefix[] = {(char *)a->env->ncu, "--metrics", (char *)c->metric, "--kernel-name", kernel, "--launch-count", "1",
                    "--csv", "--print-units", "base", NULL};
  /* The runner is in its sandbox under ncu as under every other tool: no student
   * code runs unconfined (the judge checks the filter in /proc). ncu's library, loaded
   * into the runner's process, writes files of its own there, so the judge starts it
   * --profiled: files may be read, and written only in a fresh folder (Landlock,
   * grader/runner/profiling.h). Where ncu still cannot profile, the check fails and
   * says so, and never runs the code unconfined (grading.md, threat model). */
  run_args args = {.bin = a->student, .seed = a->env->seed, .reps = 1, .batch = 1, .prefix = prefix, .profiled = 1,
                         .story = s->f};
  run_record *st = run_cases(a, c, &args);
  char *out = capture_text(&st->p.out), *err = capture_text(&st->p.err);
  int no_perm = (out && strstr(out, "ERR_NVGPUCTRPERM")) || (err && strstr(err, "ERR_NVGPUCTRPERM"));
  char ncu_error[200] = ""; /* ncu's first complaint, e.g. a call its library made that the sandbox refused */
  first_ncu_error(err, ncu_error, sizeof ncu_error);
  if (!ncu_error[0]) first_ncu_error(out, ncu_error, sizeof ncu_error);
  free(out);
  free(err);
  double value;
  int n_metrics = 1;
  for (const char *m = c->metric; *m; m++) n_metrics += *m == ',';
  int found = output_ncu_values(&st->p.out, c->metric, &value);
  fprintf(s->f, "ncu --metrics %s --kernel-name %s, variant %s, case %s\n", c->metric, c->kernel, c->variant, c->cases[0]);
  char why[400];
  if (ncu_error[0] && !st->failure[0])
    snprintf(why, sizeof why, "ncu, profiling the runner inside its sandbox, says: %s", ncu_error);
  else snprintf(why, sizeof why, "%s", st->failure[0] ? st->failure : "ncu printed no value (kernel not launched?)");
  free(st);
  if (no_perm) {
    fprintf(s->f, "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM)\n");
    return check_finish(r, s, V_UNGRADED, 0, "ungraded: ncu cannot read the GPU counters on this machine");
  }
  if (found != n_metrics) {
    fprintf(s->f, "%s\n", why);
    return check_finish(r, s, V_FAIL, 0, "no metric value: %s", why);
  }
  char want[64];
  score_describe_bounds(c->min, c->max, want, sizeof want);
  int ok = score_in_bounds(value, c->min, c->max);
  fprintf(s->f, "value %.0f (want %s)\n", value, want);
  /* The reason names the first metric and counts the rest, to stay one short line. */
  char shown[CONF_TEXT_MAX];
  snprintf(shown, sizeof shown, "%s", c->metric);
  char *comma = strchr(shown, ',');
  if (comma) snprintf(comma, sizeof shown - (size_t)(comma - shown), " + %d more", n_metrics - 1);
  check_finish(r, s, ok ? V_PASS : V_FAIL, score_all_or_nothing(c->points, ok), "ncu: %.0f, want %s (%s)", value, want, shown);
}
