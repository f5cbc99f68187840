/* checks.c: the gates every check passes, the dispatch through the kind table,
 * and the start-up tests of the student build and the reference.
 *
 * The gates, in order: the student's build failed (fail, with the build's
 * one-line reason: refused, missing file, does not compile or link, out of
 * memory; skipped when it was interrupted. Decided by the build, the same on
 * every machine, so before the GPU's gate); interrupted (skipped); the kind
 * needs a GPU and there is none (ungraded); the student's files use a
 * forbidden library (fail); the kind needs the reference and it is broken
 * (error). */
#include "checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs.h"
#include "kinds.h"
#include "proc.h"
#include "score.h"
#include "tool_output.h"

const char *verdict_name(verdict v) {
  static const char *const N[] = {"pass", "partial", "fail", "ungraded", "error", "skipped"};
  return N[v];
}

static int executable(const char *path, char *why, size_t cap, const char *what) {
  struct stat st;
  if (stat(path, &st) != 0) return snprintf(why, cap, "%s %s is missing", what, path), 0;
  if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) return snprintf(why, cap, "%s %s is not executable", what, path), 0;
  return 1;
}

/* The reference must start and, through the judge, say that it is the runner
 * of this assignment (the judge checks its HELLO and prints the --list); its
 * variants and baselines are kept. */
static void reference_prepare(assignment_ctx *ctx) {
  if (!executable(ctx->judge, ctx->reference_error, sizeof ctx->reference_error, "judge")) {
    strncat(ctx->reference_error, " (run `make tools`)", sizeof ctx->reference_error - strlen(ctx->reference_error) - 1);
    return;
  }
  if (!executable(ctx->reference, ctx->reference_error, sizeof ctx->reference_error, "reference binary")) {
    strncat(ctx->reference_error, " (run `make reference`)", sizeof ctx->reference_error - strlen(ctx->reference_error) - 1);
    return;
  }
  char *argv[] = {ctx->judge, "--assignment", (char *)ctx->conf->name, "--runner", ctx->reference, "--list", NULL};
  proc_result *p = calloc(1, sizeof *p);
  proc_run(argv, 20 * ctx->env->timeout_scale, p);
  char what[128], why[300];
  char *out = capture_text(&p->out);
  if (!(p->status == PROC_EXITED && p->exit_code == 0))
    snprintf(ctx->reference_error, sizeof ctx->reference_error, "reference binary does not start: %s", proc_describe(p, what, sizeof what));
  else if ((ctx->n_ref_slugs = run_list_parse(out, ctx->conf->name, ctx->ref_slugs, 64, why, sizeof why)) < 0)
    snprintf(ctx->reference_error, sizeof ctx->reference_error, "reference binary %s: %s", ctx->reference, why);
  else
    ctx->reference_ok = 1;
  free(out);
  free(p);
}

/* A student's file that uses a library the assignment forbids (grade.conf's
 * `forbid`: CUB's or Thrust's scans do the student's work): 1, with
 * "FILE:LINE uses LIBRARY ..." in why. Looks for the library's headers and
 * its namespace in every .cu, .cuh and .h the build staged (what was compiled). */
static int uses_forbidden(const assignment_ctx *ctx, char *why, size_t cap) {
  const assignment_conf *conf = ctx->conf;
  const build_result *b = ctx->build;
  char pattern[512], path[BUILD_PATH_MAX + SUBMISSION_NAME_MAX];
  for (int k = 0; k < conf->n_forbid; k++) {
    const char *lib = conf->forbid[k];
    regex_t re;
    snprintf(pattern, sizeof pattern, "#[[:space:]]*include[[:space:]]*[<\"]%s/|(^|[^A-Za-z0-9_])%s[[:space:]]*::", lib, lib);
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) continue;
    int found = 0;
    for (int f = 0; f < b->files.n && !found; f++) {
      const char *name = b->files.names[f], *dot = strrchr(name, '.');
      if (!dot || (strcmp(dot, ".cu") && strcmp(dot, ".cuh") && strcmp(dot, ".h"))) continue;
      snprintf(path, sizeof path, "%s/%s", b->stage, name);
      FILE *in = fopen(path, "r");
      char line[1024];
      for (int n = 1; in && !found && fgets(line, sizeof line, in); n++) {
        if (regexec(&re, line, 0, NULL, 0) != 0) continue;
        snprintf(why, cap, "not scored: %s/%s:%d uses %s, a library that does this assignment's work; write it yourself", ctx->label, name,
                 n, lib);
        found = 1;
      }
      if (in) fclose(in);
    }
    regfree(&re);
    if (found) return 1;
  }
  return 0;
}

/* The build's story: its one-line reason, then the tools' lines from the first error on (at most 12). */
static void build_story(assignment_ctx *ctx) {
  const build_result *b = ctx->build;
  size_t cap = sizeof ctx->student_error, len = (size_t)snprintf(ctx->student_error, cap, "%s\n", b->reason);
  if (!b->messages || len + 2 >= cap) return;
  const char *from = strstr(b->messages, "error");
  while (from && from > b->messages && from[-1] != '\n') from--;
  from = from ? from : b->messages;
  for (int lines = 0; *from && lines < 12 && len + 2 < cap; lines++) {
    size_t n = strcspn(from, "\n");
    len += (size_t)snprintf(ctx->student_error + len, cap - len, "%.*s\n", (int)n, from);
    from += n + (from[n] == '\n');
  }
}

void assignment_prepare(assignment_ctx *ctx, const grade_env *env, const assignment_conf *conf, const build_result *build,
                        const char *label) {
  memset(ctx, 0, sizeof *ctx);
  ctx->env = env;
  ctx->conf = conf;
  ctx->build = build;
  snprintf(ctx->label, sizeof ctx->label, "%s", label);
  snprintf(ctx->dir, sizeof ctx->dir, "%s/assignments/%s", env->root, conf->name);
  snprintf(ctx->judge, sizeof ctx->judge, "%s/build/grader/judge", env->root);
  snprintf(ctx->student, sizeof ctx->student, "%s", build->runner);
  snprintf(ctx->ptx, sizeof ctx->ptx, "%s", build->ptx);
  snprintf(ctx->model, sizeof ctx->model, "%s", build->model);
  snprintf(ctx->reference, sizeof ctx->reference, "%s/assignments/%s/ref/reference", env->root, conf->name);
  if (build->status != BUILD_OK) {
    ctx->build_failed = 1; /* the build's outcome, as the build decided it: never a runner found on disk */
    build_story(ctx);
  } else {
    ctx->student_ok = !uses_forbidden(ctx, ctx->student_error, sizeof ctx->student_error);
  }
  if (env->have_gpu) reference_prepare(ctx); /* the reference only matters for checks that run */
}

/* The first line of why the student's code is not graded. */
static void student_missing(const assignment_ctx *a, char *out, size_t cap) {
  snprintf(out, cap, "%.*s", (int)strcspn(a->student_error, "\n"), a->student_error);
}

/* Fails r because there is no student runner: the story is the whole message,
 * the reason its first line. */
static void student_failed(const assignment_ctx *a, check_result *r, story *s) {
  char first[sizeof r->reason];
  fprintf(s->f, "%s\n", a->student_error);
  if (a->build_failed)
    fprintf(s->f, "The build of %s gave no runner (%s), so no check of %s scores until it builds.\n", a->label,
            build_status_name(a->build->status), a->conf->name);
  student_missing(a, first, sizeof first);
  check_finish(r, s, V_FAIL, 0, "%s", first);
}

/* The first check that c requires which was graded earlier (earlier[0..n-1])
 * and did not pass, or NULL. One that was not graded here (no GPU) is not
 * applied: *unapplied names it. */
static const check_result *unmet_requirement(const check_conf *c, const check_result *earlier, int n,
                                             const char **unapplied) {
  *unapplied = NULL;
  for (int k = 0; k < c->n_requires; k++) {
    const check_result *q = NULL;
    for (int j = 0; j < n; j++)
      if (!strcmp(earlier[j].conf->name, c->requires[k])) q = &earlier[j];
    if (!q || q->v == V_PASS) continue;
    if (q->v == V_UNGRADED) {
      *unapplied = c->requires[k];
      continue;
    }
    return q;
  }
  return NULL;
}

void check_run(const assignment_ctx *a, const check_conf *c, check_result *r, const check_result *earlier,
               int n_earlier) {
  memset(r, 0, sizeof *r);
  r->conf = c;
  r->max = c->points;
  story s = {0};
  s.f = open_memstream(&s.buf, &s.len);
  const kind_def *kind = kind_get(c->kind);
  if (!kind) { /* conf_load accepts only kinds of the table; never fall back to another */
    fprintf(s.f, "check kind %d is not in the kind table\n", (int)c->kind);
    return check_finish(r, &s, V_ERROR, 0, "not scored: unknown check kind");
  }
  if (a->build_failed && a->build->status == BUILD_INTERRUPTED) {
    fprintf(s.f, "%s\n", a->student_error);
    return check_finish(r, &s, V_SKIPPED, 0, "%s", a->build->reason);
  }
  if (a->build_failed) return student_failed(a, r, &s);
  if (proc_interrupted) return check_finish(r, &s, V_SKIPPED, 0, "not run: grading was interrupted");
  if (kind->needs_gpu && !a->env->have_gpu) {
    fprintf(s.f, "This check needs a CUDA GPU: %s\n", a->env->gpu_note);
    if (!a->student_ok) { /* and it would not score with a GPU either: say why */
      char first[sizeof r->reason];
      student_missing(a, first, sizeof first);
      fprintf(s.f, "It would not score with a GPU either: %s\n", first);
    }
    return check_finish(r, &s, V_UNGRADED, 0, "ungraded: no GPU");
  }
  if (!a->student_ok) return student_failed(a, r, &s);
  const char *unapplied;
  const check_result *unmet = unmet_requirement(c, earlier, n_earlier, &unapplied);
  if (unmet) { /* not run at all: a sanitizer run of a deadlocking scan costs its whole call limit */
    fprintf(s.f, "This check was not run: its points count only for your own working code, and %s did not pass.\n", unmet->conf->name);
    return check_finish(r, &s, V_FAIL, 0, "not scored: needs %s to pass first (%s: %s)", unmet->conf->name,
                        unmet->conf->name, verdict_name(unmet->v));
  }
  if (unapplied) {
    fprintf(s.f, "(requires %s, which was not graded here: the requirement is not applied)\n", unapplied);
    r->requires_unapplied = 1;
  }
  if (kind->needs_reference && !a->reference_ok) {
    fprintf(s.f, "%s\n", a->reference_error);
    return check_finish(r, &s, V_ERROR, 0, "not scored: %s", a->reference_error);
  }
  kind->run(a, c, r, &s);
  if (proc_interrupted && r->v != V_PASS) {
    free(r->output);
    r->output = NULL;
    story s2 = {0};
    check_finish(r, &s2, V_SKIPPED, 0, "not finished: grading was interrupted");
  }
}

