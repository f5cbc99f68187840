/* grade.c: the grader's command line: pick assignments, run their checks,
 * print the table as it goes, write the results directory.
 *
 * Exit status (docs/grading.md):
 *   0   every check ran and was scored (whatever the score)
 *   2   bad command line, or a grade.conf error (the other assignments are still graded)
 *   3   no CUDA device: the checks that need one are "ungraded: no GPU" (0 points)
 *   4   the reference is broken, or a check's process of the grader died: some checks
 *       were not scored (error, reason in the report)
 *   5   the results could not be written (the previous ones are untouched)
 *   6   --expect: the verdicts differ from what the source should earn (with --expect,
 *       a run that matches exits 0 even without a GPU)
 *   130 interrupted: partial results written and marked incomplete
 * grade --build-only: 0 every build ok, 1 a build failed, 2 a command-line or grade.conf error, 130 interrupted. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "clock.h"
#include "conf.h"
#include "grade_build.h"
#include "kinds.h"
#include "proc.h"
#include "grade_table.h"
#include "report.h"
#include "schedule.h"
#include "seed_env.h"

static const char USAGE[] =
    "usage: grade [--root DIR] [--src starter|solutions] [--results DIR] [--seed S] [--no-gpu]\n"
    "             [--expect] [--timeout-scale X] [--cuda DIR] [--jobs N] [BUILD OPTIONS] [ASSIGNMENT ...]\n"
    "       grade --build-only [BUILD OPTIONS] [--src starter|solutions] [ASSIGNMENT ...]\n"
    "       grade --kinds      (the table of check kinds and their grade.conf keys)\n"
    "ASSIGNMENT is a folder of assignments/ or its number (NN), each named once; the default is all of them.\n"
    "--jobs N: checks run side by side (perf and metric checks always run alone); the default\n"
    "          depends on the CPU threads and the GPU's memory (docs/grading.md, \"Grading time\").\n"
    "The grader builds the student's code itself (docs/architecture.md, \"The student's build\"):\n"
    "  --nvcc PATH       nvcc (default: --cuda DIR/bin/nvcc, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc)\n"
    "  --gencode FLAGS   nvcc's GPU flags, one argument (default: build/.gencode, which make writes)\n"
    "  --dir FOLDER      build the files of FOLDER instead of <src>/NN (one assignment)\n"
    "  --out DIR         into DIR instead of build/<src>/NN (with --dir)\n"
    "  --bench           also the bench build (where grade.conf declares baselines)\n"
    "  --build-only      build, print each outcome, grade nothing (exit 1 when one failed)\n"
    "  --no-build        compile nothing: grade a build only if it was made from these files\n"
    "  --no-inspect      with --dir only: skip the inspection (the course's own GPU-tier probes that\n"
    "                    do what the inspection refuses, to test the sandbox behind it; never a student's)\n";

typedef struct options {
  const char *root, *src, *results, *cuda, *nvcc, *gencode, *dir, *out;
  int no_gpu, expect, have_seed, build_only, no_build, bench, no_inspect;
  int jobs; /* checks at once (--jobs); 0: schedule_default_jobs */
  uint64_t seed;
  double timeout_scale;
  const char *wanted[REPORT_MAX_ASSIGNMENTS];
  int n_wanted;
} options;

static void on_signal(int sig) {
  (void)sig;
  proc_interrupted = 1;
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "grade: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", USAGE);
  return 2;
}

static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->root = ".";
  o->src = "starter";
  o->timeout_scale = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--no-gpu")) o->no_gpu = 1;
    else if (!strcmp(a, "--build-only")) o->build_only = 1;
    else if (!strcmp(a, "--no-build")) o->no_build = 1;
    else if (!strcmp(a, "--bench")) o->bench = 1;
    else if (!strcmp(a, "--no-inspect")) o->no_inspect = 1;
    else if (!strcmp(a, "--expect")) o->expect = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return fputs(USAGE, stdout), -1;
    else if (!strcmp(a, "--kinds")) return kinds_print(stdout), -1;
    else if (!strncmp(a, "--", 2)) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      char *end;
      if (!strcmp(a, "--root")) o->root = v;
      else if (!strcmp(a, "--results")) o->results = v;
      else if (!strcmp(a, "--cuda")) o->cuda = v;
      else if (!strcmp(a, "--nvcc")) o->nvcc = v;
      else if (!strcmp(a, "--gencode")) o->gencode = v;
      else if (!strcmp(a, "--dir")) o->dir = v;
      else if (!strcmp(a, "--out")) o->out = v;
      else if (!strcmp(a, "--src")) {
        if (strcmp(v, "starter") && strcmp(v, "solutions")) return usage_error("--src: '%s' is not starter or solutions", v);
        o->src = v;
      } else if (!strcmp(a, "--seed")) {
        if (seed_parse(v, &o->seed) < 0) return usage_error("--seed: '%s' is not an unsigned integer below 2^53", v);
        o->have_seed = 1;
      } else if (!strcmp(a, "--jobs")) {
        long j = strtol(v, &end, 10);
        if (*end || *v < '0' || *v > '9' || j < 1 || j > SCHED_MAX_JOBS) return usage_error("--jobs: '%s' is not a count of checks in [1, 16]", v);
        o->jobs = (int)j;
      } else if (!strcmp(a, "--timeout-scale")) {
        o->timeout_scale = strtod(v, &end);
        if (*end || !(o->timeout_scale >= 0.01 && o->timeout_scale <= 100)) return usage_error("--timeout-scale: '%s' is not in [0.01, 100]", v);
      } else {
        return usage_error("unknown option '%s'", a);
      }
    } else {
      if (o->n_wanted == REPORT_MAX_ASSIGNMENTS) return usage_error("too many assignments (%s)", a);
      o->wanted[o->n_wanted++] = a;
    }
  }
  if (o->build_only && o->no_build) return usage_error("%s: --build-only and --no-build exclude each other", "--no-build");
  if (!o->dir != !o->out) return usage_error("%s: --dir and --out go together", o->dir ? "--dir" : "--out");
  if (o->no_inspect && !o->dir) return usage_error("%s: only with --dir (a course fixture), never for starter/ or solutions/", "--no-inspect");
  if (o->dir && o->n_wanted != 1) return usage_error("%s: with --dir, name exactly one assignment", o->dir);
  return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int named_already(char names[][CONF_NAME_MAX], int n, const char *name) {
  for (int k = 0; k < n; k++)
    if (!strcmp(names[k], name)) return 1;
  return 0;
}

/* The assignment folders to grade, in order. "NN" matches "NN-name". */
static int list_assignments(const options *o, char names[][CONF_NAME_MAX], int *n) {
  char dir[GRADE_PATH_MAX];
  snprintf(dir, sizeof dir, "%s/assignments", o->root);
  DIR *d = opendir(dir);
  if (!d) return fprintf(stderr, "grade: cannot open %s: %s (is --root the repository?)\n", dir, strerror(errno)), 2;
  char *all[64];
  int n_all = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n_all < 64)
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && strlen(e->d_name) < CONF_NAME_MAX) all[n_all++] = strdup(e->d_name);
  closedir(d);
  qsort(all, (size_t)n_all, sizeof *all, cmp_str);
  *n = 0;
  int rc = 0, dup = 0;
  if (!o->n_wanted)
    for (int i = 0; i < n_all && *n < REPORT_MAX_ASSIGNMENTS; i++) snprintf(names[(*n)++], CONF_NAME_MAX, "%s", all[i]);
  for (int w = 0; w < o->n_wanted; w++) {
    int found = 0;
    size_t len = strlen(o->wanted[w]);
    for (int i = 0; i < n_all && !found; i++)
      if (!strcmp(all[i], o->wanted[w]) || (!strncmp(all[i], o->wanted[w], len) && all[i][len] == '-')) {
        found = 1;
        if (named_already(names, *n, all[i])) { /* "NN NN", "NN NN-name": refused, not graded twice */
          fprintf(stderr, "grade: '%s' names %s, which an earlier argument names already: name each assignment once\n", o->wanted[w],
                  all[i]);
          rc = 2, dup = 1;
        } else {
          snprintf(names[(*n)++], CONF_NAME_MAX, "%s", all[i]);
        }
      }
    if (!found) rc = usage_error("no assignment '%s' in assignments/", o->wanted[w]);
  }
  for (int i = 0; i < n_all; i++) free(all[i]);
  if (dup) *n = 0; /* refused whole: nothing is graded */
  return rc;
}

static void find_gpu(const options *o, grade_env *env) {
  if (o->no_gpu || getenv("SCANLAB_NO_GPU")) {
    env->have_gpu = 0;
    snprintf(env->gpu_note, sizeof env->gpu_note, "none used (no-GPU mode was asked for)");
    return;
  }
  char probe[GRADE_PATH_MAX];
  snprintf(probe, sizeof probe, "%s/build/tools/gpuinfo", o->root);
  char *argv[] = {probe, NULL};
  proc_result *p = calloc(1, sizeof *p);
  proc_run(argv, 30, p);
  char *out = capture_text(&p->out);
  char *nl = out ? strchr(out, '\n') : NULL;
  if (nl) *nl = 0;
  env->have_gpu = p->status == PROC_EXITED && p->exit_code == 0;
  if (p->status == PROC_SPAWN_FAILED) snprintf(env->gpu_note, sizeof env->gpu_note, "no CUDA device found (%s; run make)", p->spawn_error);
  else snprintf(env->gpu_note, sizeof env->gpu_note, "%s", out && out[0] ? out : "no CUDA device (gpuinfo printed nothing)");
  free(out);
  free(p);
}

/* A CUDA tool from --cuda DIR alone when it is given, else from $CUDA_HOME or
 * /usr/local/cuda; "" when there is none. */
static void find_tool(const options *o, const char *tool, char *path, size_t cap) {
  const char *dirs[] = {o->cuda, o->cuda ? NULL : getenv("CUDA_HOME"), o->cuda ? NULL : "/usr/local/cuda"};
  for (int i = 0; i < 3; i++) {
    if (!dirs[i]) continue;
    snprintf(path, cap, "%s/bin/%s", dirs[i], tool);
    if (access(path, X_OK) == 0) return;
  }
  path[0] = 0;
}

/* An untouched starter earns at most this share of an assignment's points
 * (graded with a GPU): points are for the student's own work. */
#define STARTER_MAX_SHARE 0.10

/* Compares verdicts with what the source should earn. Returns mismatches. */
static int check_expectations(const run_report *rep, const char *src, int have_gpu) {
  int bad = 0;
  for (int a = 0; a < rep->n_assignments; a++) {
    const assignment_report *ar = &rep->assignments[a];
    if (ar->conf_error[0]) {
      printf("EXPECT %s: grade.conf does not load\n", ar->name);
      bad++;
    }
    for (int i = 0; i < ar->n_results; i++) {
      const check_result *r = &ar->results[i];
      if (r->v == V_UNGRADED || r->requires_unapplied) continue; /* not (fully) graded here: nothing to compare */
      const char *want;
      int ok;
      if (!strcmp(src, "solutions")) want = "pass", ok = r->v == V_PASS;
      else if (r->conf->expect_starter == EXPECT_PASS) want = "pass", ok = r->v == V_PASS;
      else if (r->conf->expect_starter == EXPECT_FAIL) want = "fail", ok = r->v == V_FAIL || r->v == V_PARTIAL;
      else want = "any", ok = r->v != V_ERROR && r->v != V_SKIPPED;
      if (!ok) {
        printf("EXPECT %s/%s (%s): %s should %s, got %s: %s\n", ar->name, r->conf->name, conf_kind_name(r->conf->kind), src, want,
               verdict_name(r->v), r->reason);
        bad++;
      }
    }
    if (!strcmp(src, "starter") && have_gpu && !ar->conf_error[0]) {
      double score = 0, max = 0;
      for (int i = 0; i < ar->n_results; i++) score += ar->results[i].score, max += ar->results[i].max;
      if (score > STARTER_MAX_SHARE * max + 1e-9) {
        printf("EXPECT %s: the untouched starter scores %.2f of %.0f; at most %.0f is allowed\n", ar->name, score, max,
               STARTER_MAX_SHARE * max);
        bad++;
      }
    }
  }
  return bad;
}

/* Works from the repository root, as the build's tools need (the inspection
 * reads paths below the current folder): the paths given on the command line
 * are made absolute first. */
static int enter_root(options *o) {
  if (!strcmp(o->root, ".")) return 0;
  o->results = grade_build_absolute(o->results);
  o->cuda = grade_build_absolute(o->cuda);
  o->nvcc = o->nvcc && strchr(o->nvcc, '/') ? grade_build_absolute(o->nvcc) : o->nvcc;
  o->dir = grade_build_absolute(o->dir);
  o->out = grade_build_absolute(o->out);
  if (chdir(o->root) != 0) return fprintf(stderr, "grade: cannot enter --root %s: %s\n", o->root, strerror(errno)), 2;
  o->root = ".";
  return 0;
}

static grade_build_opts build_opts(const options *o) {
  return (grade_build_opts){.src = o->src, .dir = o->dir, .out = o->out, .cuda = o->cuda, .nvcc = o->nvcc, .gencode = o->gencode,
                            .bench = o->bench, .no_build = o->no_build, .no_inspect = o->no_inspect};
}

int main(int argc, char **argv) {
  options o;
  int rc = parse_args(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: poll() returns at once */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  if ((rc = enter_root(&o))) return rc;
  static char names[REPORT_MAX_ASSIGNMENTS][CONF_NAME_MAX];
  int n_names = 0, status = list_assignments(&o, names, &n_names);
  if (status && !n_names) return status;
  if (!n_names) return fprintf(stderr, "grade: no assignments under %s/assignments\n", o.root), 2;
  static build_tools tools;
  char tools_err[600];
  grade_build_opts bo = build_opts(&o);
  if (grade_build_tools(&bo, &tools, tools_err, sizeof tools_err)) return usage_error("%s", tools_err);
  if (o.build_only) return grade_build_only(&bo, &tools, names, n_names, status);

  grade_env env;
  memset(&env, 0, sizeof env);
  env.root = o.root;
  env.src = o.src;
  env.timeout_scale = o.timeout_scale;
  if (o.have_seed) {
    env.seed = o.seed;
  } else {
    char seed_err[200];
    int seed_set = seed_from_env(&env.seed, stderr, seed_err, sizeof seed_err);
    if (seed_set < 0) return usage_error("%s", seed_err);
    if (!seed_set) env.seed = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid()) % 1000000000u;
  }
  find_gpu(&o, &env);
  find_tool(&o, "compute-sanitizer", env.sanitizer, sizeof env.sanitizer);
  find_tool(&o, "ncu", env.ncu, sizeof env.ncu);

  static run_report rep;
  static assignment_conf confs[REPORT_MAX_ASSIGNMENTS];
  memset(&rep, 0, sizeof rep);
  rep.env = &env;
  time_t t0 = time(NULL);
  struct tm tm;
  localtime_r(&t0, &tm);
  strftime(rep.started, sizeof rep.started, "%Y-%m-%dT%H:%M:%S%z", &tm);
  strftime(rep.stamp, sizeof rep.stamp, "%Y%m%d-%H%M%S", &tm);
  double t_start = clock_now_s();
  char results_root[GRADE_PATH_MAX], dir[GRADE_PATH_MAX], err[512];
  if (o.results) snprintf(results_root, sizeof results_root, "%s", o.results);
  else snprintf(results_root, sizeof results_root, "%s/grade-results", o.root);
  if (report_open(&rep, results_root) == 0) snprintf(env.save_root, sizeof env.save_root, "%s", rep.tmp);

  printf("Scan Lab grader: grading %s/, seed %" PRIu64 " (" SEED_ENV "=%" PRIu64 " replays it)\n", o.src, env.seed, env.seed);
  if (!env.have_gpu)
    printf("No GPU mode: %s. Only the checks that need no GPU are run; the rest are \"ungraded: no GPU\" (0 points).\n",
           env.gpu_note);
  else
    printf("GPU: %s\n", env.gpu_note);
  /* Every assignment's conf and context first; then the checks of all of them
   * on one schedule (schedule.h), the table printed in order as rows finish. */
  static assignment_ctx ctxs[REPORT_MAX_ASSIGNMENTS];
  static build_result builds[REPORT_MAX_ASSIGNMENTS];
  static sched_item items[REPORT_MAX_ASSIGNMENTS * CONF_MAX_CHECKS];
  table tb = {.rep = &rep, .items = items, .colour = grade_table_colour(), .tty = isatty(1)};
  for (int a = 0; a < n_names; a++) {
    assignment_report *ar = &rep.assignments[rep.n_assignments++];
    snprintf(ar->name, sizeof ar->name, "%s", names[a]);
    char path[GRADE_PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/assignments/%s/grade.conf", o.root, names[a]);
    if (conf_load(path, &confs[a], err, sizeof err)) {
      snprintf(ar->conf_error, sizeof ar->conf_error, "%s", err);
      fprintf(stderr, "grade: %s\n", err);
      status = 2;
      continue;
    }
    if (strcmp(confs[a].name, names[a])) {
      snprintf(ar->conf_error, sizeof ar->conf_error, "%s:1: name '%s' does not match the folder '%s'", path, confs[a].name, names[a]);
      fprintf(stderr, "grade: %s\n", ar->conf_error);
      status = 2;
      continue;
    }
    ar->conf = &confs[a];
    char label[GRADE_PATH_MAX];
    grade_build_one(&bo, &tools, &confs[a], &builds[a], label, sizeof label);
    assignment_prepare(&ctxs[a], &env, &confs[a], &builds[a], label);
    tb.ctxs[a] = &ctxs[a];
    ar->n_results = confs[a].n_checks;
    for (int i = 0; i < confs[a].n_checks; i++)
      items[tb.n++] = (sched_item){.ctx = &ctxs[a], .c = &confs[a].checks[i], .r = &ar->results[i], .earlier = ar->results, .index = i};
  }
  table_done(&tb, -1); /* the first heading (and, on a terminal, what runs) */
  int jobs = o.jobs ? o.jobs : schedule_default_jobs(env.have_gpu, env.gpu_note);
  schedule_run(items, tb.n, jobs, table_done, &tb);
  table_heads(&tb, rep.n_assignments); /* and any after the last */
  int broken_ref = 0;
  for (int i = 0; i < tb.n; i++) broken_ref |= items[i].r->v == V_ERROR;
  rep.elapsed_s = clock_now_s() - t_start;
  rep.interrupted = proc_interrupted;

  double score, max;
  report_totals(&rep, &score, &max);
  printf("\nTotal: %.2f / %.2f%s\n", score, max, rep.interrupted ? " (INCOMPLETE: interrupted)" : "");

  if (report_write(&rep, results_root, dir, sizeof dir, err, sizeof err)) {
    fprintf(stderr, "grade: results not saved: %s. Previous results in %s/ are untouched.\n", err, results_root);
    return 5;
  }
  printf("Results: %s/ (results.json, report.md; perf.png: %s)\n", dir, rep.plot_note);

  if (rep.interrupted) return 130;
  if (o.expect) {
    int bad = check_expectations(&rep, o.src, env.have_gpu);
    printf("%s: %d check(s) differ from what %s/ should earn\n", bad ? "EXPECT FAILED" : "EXPECT OK", bad, o.src);
    return bad ? 6 : status; /* no GPU is not a mismatch: ungraded checks are not compared */
  }
  if (status) return status;
  if (broken_ref) return 4;
  if (!env.have_gpu) return 3;
  return 0;
}
