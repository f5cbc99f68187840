/* report.c: results.json, report.md, results.tsv, perf.png, and the directory dance. */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "proc.h"

void report_totals(const run_report *r, double *score, double *max) {
  *score = *max = 0;
  for (int a = 0; a < r->n_assignments; a++)
    for (int i = 0; i < r->assignments[a].n_results; i++) {
      *score += r->assignments[a].results[i].score;
      *max += r->assignments[a].results[i].max;
    }
}

static int ungraded_count(const run_report *r) {
  int n = 0;
  for (int a = 0; a < r->n_assignments; a++)
    for (int i = 0; i < r->assignments[a].n_results; i++) n += r->assignments[a].results[i].v == V_UNGRADED;
  return n;
}

/* The summary every format starts with. */
static void summary(FILE *f, const run_report *r) {
  double score, max;
  report_totals(r, &score, &max);
  fprintf(f, "Scan Lab grade: %.2f / %.2f (source: %s/, seed %" PRIu64 ")\n", score, max, r->env->src, r->env->seed);
  fprintf(f, "GPU: %s\n", r->env->gpu_note);
  if (r->interrupted) fprintf(f, "INCOMPLETE: grading was interrupted; the checks not run are marked skipped.\n");
  int u = ungraded_count(r);
  if (u) fprintf(f, "%d check(s) ungraded (0 points, not passed): they need what this machine lacks.\n", u);
  for (int a = 0; a < r->n_assignments; a++)
    if (r->assignments[a].conf_error[0]) fprintf(f, "%s: not graded: %s\n", r->assignments[a].name, r->assignments[a].conf_error);
}

void report_json(FILE *f, const run_report *r) {
  jw_writer w;
  jw_begin(&w, f);
  double score, max;
  report_totals(r, &score, &max);
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  summary(m, r);
  fclose(m);
  jw_object_open(&w, NULL);
  jw_number(&w, "score", score);
  jw_number(&w, "max_score", max);
  jw_number(&w, "execution_time", r->elapsed_s);
  jw_string(&w, "output", text);
  jw_string(&w, "visibility", "visible");
  jw_string(&w, "stdout_visibility", "visible");
  free(text);
  jw_array_open(&w, "tests");
  for (int a = 0; a < r->n_assignments; a++) {
    const assignment_report *ar = &r->assignments[a];
    if (ar->conf_error[0]) {
      char name[160];
      snprintf(name, sizeof name, "%s: grade.conf", ar->name);
      jw_object_open(&w, NULL);
      jw_string(&w, "name", name);
      jw_number(&w, "score", 0);
      jw_number(&w, "max_score", 0);
      jw_string(&w, "status", "failed");
      jw_string(&w, "output", ar->conf_error);
      jw_string(&w, "visibility", "visible");
      jw_object_close(&w);
    }
    for (int i = 0; i < ar->n_results; i++) {
      const check_result *c = &ar->results[i];
      char name[200], number[16];
      snprintf(name, sizeof name, "%s: %s (%s)", ar->name, c->conf->name, c->conf->title);
      snprintf(number, sizeof number, "%.2s.%d", ar->name, i + 1);
      jw_object_open(&w, NULL);
      jw_string(&w, "name", name);
      jw_string(&w, "number", number);
      jw_number(&w, "score", c->score);
      jw_number(&w, "max_score", c->max);
      jw_string(&w, "status", c->v == V_PASS ? "passed" : "failed");
      jw_string(&w, "output", c->output ? c->output : c->reason);
      jw_string(&w, "visibility", c->conf->visibility);
      jw_array_open(&w, "tags");
      jw_string(&w, NULL, conf_kind_name(c->conf->kind));
      jw_string(&w, NULL, ar->name);
      jw_array_close(&w);
      jw_object_open(&w, "extra_data");
      jw_string(&w, "verdict", verdict_name(c->v));
      jw_string(&w, "reason", c->reason);
      jw_number(&w, "seconds", c->seconds);
      if (c->has_perf) {
        jw_number(&w, "student_ms", c->t_student);
        jw_number(&w, "reference_ms", c->t_ref); /* the baseline's time */
        jw_string(&w, "baseline", c->baseline);
      }
      if (c->files) {
        jw_array_open(&w, "files");
        char *copy = strdup(c->files), *save = NULL;
        for (char *f = strtok_r(copy, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) jw_string(&w, NULL, f);
        free(copy);
        jw_array_close(&w);
      }
      jw_object_close(&w);
      jw_object_close(&w);
    }
  }
  jw_array_close(&w);
  jw_object_open(&w, "extra_data");
  jw_bool(&w, "incomplete", r->interrupted);
  jw_number(&w, "seed", (double)r->env->seed);
  jw_string(&w, "source", r->env->src);
  jw_string(&w, "gpu", r->env->gpu_note);
  jw_string(&w, "started", r->started);
  jw_number(&w, "ungraded", ungraded_count(r));
  jw_object_close(&w);
  jw_object_close(&w);
}

/* Markdown table cells cannot hold '|' or newlines. */
static void md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else if (*s == '\n' || *s == '\r') fputc(' ', f);
    else fputc(*s, f);
  }
}

/* Links to the files a check saved (paths relative to the results folder). */
static void md_files(FILE *f, const char *files) {
  if (!files) return;
  fprintf(f, "\nSaved files:\n\n");
  char *copy = strdup(files), *save = NULL;
  for (char *p = strtok_r(copy, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) fprintf(f, "- [%s](%s)\n", p, p);
  free(copy);
}

void report_markdown(FILE *f, const run_report *r) {
  fprintf(f, "# Grade report\n\n```\n");
  summary(f, r);
  fprintf(f, "```\n\nStarted %s, took %.1f s. perf.png: %s\n", r->started, r->elapsed_s, r->plot_note);
  for (int a = 0; a < r->n_assignments; a++) {
    const assignment_report *ar = &r->assignments[a];
    double s = 0, m = 0;
    for (int i = 0; i < ar->n_results; i++) s += ar->results[i].score, m += ar->results[i].max;
    fprintf(f, "\n## %s: %.2f / %.2f\n\n", ar->name, s, m);
    if (ar->conf_error[0]) {
      fprintf(f, "Not graded: `%s`\n", ar->conf_error);
      continue;
    }
    fprintf(f, "| check | kind | verdict | points | seconds | reason |\n| --- | --- | --- | ---: | ---: | --- |\n");
    for (int i = 0; i < ar->n_results; i++) {
      const check_result *c = &ar->results[i];
      fprintf(f, "| %s | %s | %s | %.2f / %.2f | %.1f | ", c->conf->name, conf_kind_name(c->conf->kind), verdict_name(c->v), c->score,
              c->max, c->seconds);
      md_cell(f, c->reason);
      fprintf(f, " |\n");
    }
    for (int i = 0; i < ar->n_results; i++) {
      const check_result *c = &ar->results[i];
      if (!c->output || c->v == V_PASS) continue;
      fprintf(f, "\n### %s\n\n```\n%s%s```\n", c->conf->name, c->output,
              c->output[0] && c->output[strlen(c->output) - 1] == '\n' ? "" : "\n");
      md_files(f, c->files);
    }
  }
}

/* A TSV cell ends its line; tabs and newlines inside it become spaces. */
static void tsv_cell(FILE *f, const char *s) {
  for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
  fputc('\n', f);
}

void report_tsv(FILE *f, const run_report *r) {
  fprintf(f, "assignment\tcheck\tkind\tverdict\tscore\tmax\tstudent_ms\treference_ms\texpect_starter\treason\n");
  static const char *const E[] = {"any", "pass", "fail"};
  for (int a = 0; a < r->n_assignments; a++) {
    const assignment_report *ar = &r->assignments[a];
    if (ar->conf_error[0]) {
      fprintf(f, "%s\tgrade.conf\tconf\terror\t0\t0\t-\t-\tany\t", ar->name);
      tsv_cell(f, ar->conf_error);
    }
    for (int i = 0; i < ar->n_results; i++) {
      const check_result *c = &ar->results[i];
      fprintf(f, "%s\t%s\t%s\t%s\t%.2f\t%.2f\t", ar->name, c->conf->name, conf_kind_name(c->conf->kind), verdict_name(c->v), c->score, c->max);
      if (c->has_perf) fprintf(f, "%.6g\t%.6g", c->t_student, c->t_ref);
      else fprintf(f, "-\t-");
      fprintf(f, "\t%s\t", E[c->conf->expect_starter]);
      tsv_cell(f, c->reason);
    }
  }
}

/* ---------------------------------------------------------------- files */

typedef void (*writer_fn)(FILE *, const run_report *);

/* Writes one file and checks every step: a full disk shows up at fclose at the latest. */
static int write_file(const char *dir, const char *name, writer_fn fn, const run_report *r, char *err, size_t cap) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return snprintf(err, cap, "cannot create %s: %s", path, strerror(errno)), -1;
  fn(f, r);
  int bad = ferror(f);
  if (fflush(f) != 0) bad = 1;
  int e = errno;
  if (fclose(f) != 0 && !bad) bad = 1, e = errno;
  if (bad) return snprintf(err, cap, "cannot write %s: %s", path, strerror(e ? e : EIO)), -1;
  return 0;
}

static void perf_dat(FILE *f, const run_report *r) {
  fprintf(f, "# check baseline_ms student_ms (the label names the baseline)\n");
  for (int a = 0; a < r->n_assignments; a++)
    for (int i = 0; i < r->assignments[a].n_results; i++) {
      const check_result *c = &r->assignments[a].results[i];
      if (c->has_perf)
        fprintf(f, "\"%.2s/%s vs %s\" %.6g %.6g\n", r->assignments[a].name, c->conf->name, c->baseline, c->t_ref, c->t_student);
    }
}

static void perf_gp(FILE *f, const run_report *r) {
  char gpu[256];
  snprintf(gpu, sizeof gpu, "%s", r->env->gpu_note);
  for (char *c = gpu; *c; c++)
    if (*c == '\'' || *c == '\\') *c = ' '; /* they would end gnuplot's string */
  fprintf(f,
          "set terminal pngcairo size 1000,560 noenhanced font 'sans,10'\n"
          "set output 'perf.png'\n"
          "set title 'Student vs baseline (the reference unless named), min of medians per perf check (lower is better)\\nGPU: %s'\n"
          "set ylabel 'time (ms, log scale)'\n"
          "set logscale y\n"
          "set style data histogram\n"
          "set style histogram cluster gap 1\n"
          "set style fill solid 0.8 border -1\n"
          "set xtics rotate by -25\n"
          "set key top left\n"
          "set grid ytics\n"
          "plot 'perf.dat' using 2:xtic(1) title 'baseline' lc rgb '#7f7f7f', '' using 3 title 'student' lc rgb '#1f77b4'\n",
          gpu);
}

static int find_in_path(const char *prog, char *out, size_t cap) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char *copy = strdup(path), *save = NULL;
  int found = 0;
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    snprintf(out, cap, "%s/%s", d, prog);
    found = access(out, X_OK) == 0;
  }
  free(copy);
  return found;
}

static void plot(run_report *r, const char *dir) {
  int n = 0;
  for (int a = 0; a < r->n_assignments; a++)
    for (int i = 0; i < r->assignments[a].n_results; i++) n += r->assignments[a].results[i].has_perf;
  char gnuplot[1024], err[256];
  if (!n) {
    snprintf(r->plot_note, sizeof r->plot_note, "skipped: no performance check was timed in this run");
    return;
  }
  if (!find_in_path("gnuplot", gnuplot, sizeof gnuplot)) {
    snprintf(r->plot_note, sizeof r->plot_note, "skipped: gnuplot not found (sudo apt-get install gnuplot-nox)");
    return;
  }
  if (write_file(dir, "perf.dat", perf_dat, r, err, sizeof err) || write_file(dir, "perf.gp", perf_gp, r, err, sizeof err)) {
    snprintf(r->plot_note, sizeof r->plot_note, "skipped: %s", err);
    return;
  }
  /* gnuplot resolves 'perf.dat' and 'perf.png' against its working directory. */
  char script[1200];
  snprintf(script, sizeof script, "cd '%s' && exec '%s' perf.gp", dir, gnuplot);
  char *argv[] = {"/bin/sh", "-c", script, NULL};
  proc_result *p = calloc(1, sizeof *p);
  proc_run(argv, 30, p);
  char png[2048], what[128];
  snprintf(png, sizeof png, "%s/perf.png", dir);
  if (p->status == PROC_EXITED && p->exit_code == 0 && access(png, R_OK) == 0) snprintf(r->plot_note, sizeof r->plot_note, "perf.png");
  else snprintf(r->plot_note, sizeof r->plot_note, "skipped: gnuplot failed (%s)", proc_describe(p, what, sizeof what));
  free(p);
}

/* rm -r dir: the results folder holds files and folders of images. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[2048];
    while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
        else unlink(path);
      }
    closedir(d);
  }
  rmdir(dir);
}

int report_open(run_report *r, const char *root) {
  char tmp[sizeof r->tmp];
  r->tmp[0] = 0;
  if (mkdir(root, 0777) != 0 && errno != EEXIST) return -1;
  snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%ld", root, r->stamp, (long)getpid());
  if (mkdir(tmp, 0777) != 0) return -1;
  snprintf(r->tmp, sizeof r->tmp, "%s", tmp);
  return 0;
}

int report_write(run_report *r, const char *root, char *dir, size_t dircap, char *err, size_t errcap) {
  if (mkdir(root, 0777) != 0 && errno != EEXIST) return snprintf(err, errcap, "cannot create %s: %s", root, strerror(errno)), -1;
  char tmp[1024];
  snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%ld", root, r->stamp, (long)getpid());
  if (strcmp(tmp, r->tmp) && mkdir(tmp, 0777) != 0) return snprintf(err, errcap, "cannot create %s: %s", tmp, strerror(errno)), -1;
  plot(r, tmp);
  if (write_file(tmp, "results.json", report_json, r, err, errcap) || write_file(tmp, "report.md", report_markdown, r, err, errcap) ||
      write_file(tmp, "results.tsv", report_tsv, r, err, errcap)) {
    remove_tree(tmp);
    return -1;
  }
  /* Publish: a new name per run (a second run in the same second gets -2, -3 ...). */
  char name[96];
  for (int k = 1;; k++) {
    if (k == 1) snprintf(name, sizeof name, "%s", r->stamp);
    else snprintf(name, sizeof name, "%s-%d", r->stamp, k);
    snprintf(dir, dircap, "%s/%s", root, name);
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE) == 0) break;
    if (errno == EEXIST && k < 100) continue;
    int e = errno;
    remove_tree(tmp);
    return snprintf(err, errcap, "cannot rename %s to %s: %s", tmp, dir, strerror(e)), -1;
  }
  /* Point latest at it: a new symlink renamed over the old one is atomic. */
  char link_tmp[1100], latest[1100];
  snprintf(link_tmp, sizeof link_tmp, "%s/.latest-%ld", root, (long)getpid());
  snprintf(latest, sizeof latest, "%s/latest", root);
  unlink(link_tmp);
  if (symlink(name, link_tmp) != 0 || rename(link_tmp, latest) != 0) {
    /* The run is saved; only the pointer to it is stale. Say so, not "lost". */
    int e = errno;
    unlink(link_tmp);
    fprintf(stderr, "grade: warning: %s could not be pointed at %s: %s\n", latest, name, strerror(e));
  }
  return 0;
}
