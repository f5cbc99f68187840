/* build.c: the student's build, step by step (build.h). */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_hash.h"
#include "build_recipe.h"
#include "proc.h"

#define STAMP_VERSION "scanlab-build 1"

/* Everything a build writes in OUT, removed before a new build and after a failed step. */
static const char *const OUTPUTS[] = {"runner", "runner.ptx", "student.o", "student.d", "runner.d", "ptx.d", "model", "model-tables",
                                      "bench", "build.stamp", "refused", "ptx.log", "model.log", "model-tables.log", "bench.log"};

const char *build_status_name(build_status s) {
  static const char *const N[] = {"ok", "refused", "missing file", "does not compile", "does not link", "interrupted", "out of memory", "not built"};
  return (unsigned)s < sizeof N / sizeof *N ? N[s] : "?";
}

int build_tools_init(build_tools *t, const char *nvcc, const char *gencode, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  if (strlen(nvcc) >= sizeof t->nvcc || strlen(gencode) >= sizeof t->gencode_text)
    return snprintf(why, cap, "--nvcc or --gencode is too long"), -1;
  snprintf(t->nvcc, sizeof t->nvcc, "%s", nvcc);
  snprintf(t->nvcc_dir, sizeof t->nvcc_dir, "%s", nvcc);
  char *slash = strrchr(t->nvcc_dir, '/');
  if (slash) *slash = 0;
  else snprintf(t->nvcc_dir, sizeof t->nvcc_dir, ".");
  snprintf(t->gencode_text, sizeof t->gencode_text, "%s", gencode);
  snprintf(t->words_buf, sizeof t->words_buf, "%s", gencode);
  char *save = NULL;
  for (char *w = strtok_r(t->words_buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
    if (t->n_gencode == BUILD_MAX_GENCODE) return snprintf(why, cap, "--gencode: more than %d words", BUILD_MAX_GENCODE), -1;
    if (w[0] != '-' && (t->n_gencode == 0 || strcmp(t->gencode[t->n_gencode - 1], "-gencode")))
      return snprintf(why, cap, "--gencode: '%s' is not an nvcc option (-arch=sm_90, or -gencode arch=...,code=...)", w), -1;
    t->gencode[t->n_gencode++] = w;
  }
  if (!t->n_gencode) return snprintf(why, cap, "--gencode is empty"), -1;
  return 0;
}

void build_result_free(build_result *r) {
  free(r->messages);
  r->messages = NULL;
}

/* ---------------------------------------------------------------- the build folder */


static void remove_outputs(const build_spec *s) {
  char path[BUILD_PATH_MAX];
  for (size_t i = 0; i < sizeof OUTPUTS / sizeof *OUTPUTS; i++) {
    build_out_path(path, s, OUTPUTS[i]);
    unlink(path);
  }
}

static int mkdir_p(const char *dir) {
  char path[BUILD_PATH_MAX];
  snprintf(path, sizeof path, "%s", dir);
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The stamp: the two hashes and whether the bench build is there. */
static int read_stamp(const build_spec *s, char files[65], char tools[65], int *bench) {
  char path[BUILD_PATH_MAX], head[64] = "";
  build_out_path(path, s, "build.stamp");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = fscanf(f, "%63[^\n]\nfiles %64s\ntools %64s\nbench %d", head, files, tools, bench) == 4 && !strcmp(head, STAMP_VERSION);
  fclose(f);
  return ok ? 0 : -1;
}

static int write_stamp(const build_spec *s, const char *files, const char *tools, int bench) {
  char path[BUILD_PATH_MAX], tmp[BUILD_PATH_MAX + 16];
  build_out_path(path, s, "build.stamp");
  snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return -1;
  fprintf(f, STAMP_VERSION "\nfiles %s\ntools %s\nbench %d\n", files, tools, bench);
  if (fclose(f) != 0 || rename(tmp, path) != 0) return unlink(tmp), -1;
  return 0;
}

/* Whether every output a grading needs is there (not student.o: a build carried to a
 * GPU host leaves the objects behind). */
static int outputs_present(const build_ctx *c) {
  const build_result *r = c->r;
  char tables[BUILD_PATH_MAX];
  build_out_path(tables, c->s, "model-tables");
  return build_exists(r->runner) && build_exists(r->ptx) && (!c->has_model || build_exists(r->model)) && (!c->has_tables || build_exists(tables));
}


/* ---------------------------------------------------------------- one build */

static build_status status_of(submission_status s) {
  return s == SUBMISSION_REFUSED ? BUILD_REFUSED : s == SUBMISSION_MISSING ? BUILD_MISSING : BUILD_NOT_BUILT;
}

/* What to build, as the assignment's grade.conf declares it ([assignment]: link, model, model_tables, baselines). */
static void set_paths(build_ctx *c) {
  const build_spec *s = c->s;
  build_result *r = c->r;
  snprintf(c->adir, sizeof c->adir, "assignments/%s", s->conf->name);
  c->is_inline = s->conf->link == LINK_INLINE;
  c->has_model = s->conf->model[0] != 0;
  c->has_tables = s->conf->model_tables[0] != 0;
  c->has_baselines = s->conf->baselines[0] != 0;
  build_out_path(r->stage, s, "stage");
  build_out_path(r->runner, s, "runner");
  build_out_path(r->ptx, s, "runner.ptx");
  if (c->has_model) build_out_path(r->model, s, "model");
  if (c->has_baselines && s->bench) build_out_path(r->bench, s, "bench");
  c->log = (step_log){.stage = r->stage, .label = s->label, .echo = 1};
}

/* The hash of the staged files and the course files: "files" (0, or -1 with r set). */
static int hash_files(build_ctx *c, char hex[65]) {
  const build_spec *s = c->s;
  sha256 h;
  sha256_init(&h);
  sha256_add_str(&h, STAMP_VERSION);
  sha256_add_str(&h, s->conf->name);
  sha256_add_str(&h, s->conf->student);
  sha256_add_str(&h, c->is_inline ? "inline" : "object");
  sha256_add_str(&h, s->conf->model);
  sha256_add_str(&h, s->conf->model_tables);
  sha256_add_str(&h, s->conf->baselines);
  sha256_add_str(&h, s->no_inspect ? "not inspected" : "inspected"); /* never reused across the two */
  submission_status st = submission_stage(s->dir, s->label, s->conf->student, c->r->stage, &c->r->files, &h, c->r->reason, sizeof c->r->reason);
  if (st != SUBMISSION_OK) return c->r->status = status_of(st), -1;
  if (build_hash_course(&h, c->adir, c->has_model, c->r->reason, sizeof c->r->reason)) return c->r->status = BUILD_NOT_BUILT, -1;
  sha256_hex(&h, hex);
  return 0;
}

static int hash_tools(build_ctx *c, char hex[65]) {
  sha256 h;
  sha256_init(&h);
  if (build_hash_tools(&h, c->s->tools, c->has_model, c->r->reason, sizeof c->r->reason)) return c->r->status = BUILD_NOT_BUILT, -1;
  sha256_hex(&h, hex);
  return 0;
}

/* Builds what is needed, given the earlier build's stamp; 0 or -1 with r set. */
static int build_needed(build_ctx *c, const char *files, int have_stamp, const char *old_files, const char *old_tools, int old_bench) {
  const build_spec *s = c->s;
  char tools[65];
  if (hash_tools(c, tools)) return -1;
  char obj[BUILD_PATH_MAX];
  build_out_path(obj, s, "student.o");
  int same = have_stamp && !strcmp(files, old_files) && !strcmp(tools, old_tools) && outputs_present(c) &&
             (!c->r->bench[0] || c->is_inline || build_exists(obj)); /* the bench build links student.o */
  if (same && (!c->r->bench[0] || (old_bench && build_exists(c->r->bench)))) {
    c->r->reused = 1;
    printf("reused %s: its files are those of the build in %s (build.stamp)\n", s->label, s->out);
    return 0;
  }
  char log_path[BUILD_PATH_MAX];
  build_out_path(log_path, s, "build.log");
  if (!same) {
    remove_outputs(s);
    printf("NVCC %s/%s -> %s/runner\n", s->label, s->conf->student, s->out);
  } else {
    printf("NVCC %s/%s -> %s (with baselines)\n", s->label, s->conf->student, c->r->bench);
  }
  fflush(stdout);
  c->log.f = fopen(log_path, same ? "a" : "w");
  c->log_started = 1;
  int rc = same ? build_recipe_bench(c) : build_recipe_all(c);
  if (c->log.f) fclose(c->log.f);
  c->log.f = NULL;
  if (rc == 0 && write_stamp(s, files, tools, c->r->bench[0] != 0) != 0)
    rc = build_fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s/build.stamp: %s", s->out, strerror(errno));
  return rc;
}

void build_run(const build_spec *spec, build_result *r) {
  memset(r, 0, sizeof *r);
  build_ctx c = {.s = spec, .r = r};
  set_paths(&c);
  r->status = BUILD_OK;
  if (mkdir_p(spec->out) != 0) {
    build_fail(r, BUILD_NOT_BUILT, "not built: cannot make the build folder %s: %s", spec->out, strerror(errno));
    return;
  }
  /* One build of a folder at a time: a second grader waits here for the first. */
  char lock_path[BUILD_PATH_MAX];
  build_out_path(lock_path, spec, ".lock");
  int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  char files[65], old_files[65] = "", old_tools[65] = "";
  int old_bench = 0, have_stamp = read_stamp(spec, old_files, old_tools, &old_bench) == 0;
  int rc = hash_files(&c, files);
  if (rc == 0 && spec->no_build) {
    if (!have_stamp || strcmp(files, old_files) || !outputs_present(&c) || (r->bench[0] && !(old_bench && build_exists(r->bench))))
      rc = build_fail(r, BUILD_NOT_BUILT, "not built: %s holds no build of these files of %s (build it first: grade --build-only)", spec->out,
                spec->label);
    else
      r->reused = 1;
  } else if (rc == 0) {
    rc = build_needed(&c, files, have_stamp, old_files, old_tools, old_bench);
  }
  if (rc != 0 && proc_interrupted && r->status != BUILD_INTERRUPTED) /* whatever step the Ctrl-C met */
    build_fail(r, BUILD_INTERRUPTED, "interrupted: the build was stopped before it finished");
  if (rc != 0 && !spec->no_build) {
    remove_outputs(spec); /* nothing of an earlier build can be graded */
    /* build.log ends with the reason (and holds nothing of an earlier build) */
    char log_path[BUILD_PATH_MAX];
    build_out_path(log_path, spec, "build.log");
    FILE *f = fopen(log_path, c.log_started ? "a" : "w");
    if (f) fprintf(f, "%s: %s\n", spec->label, r->reason), fclose(f);
  }
  if (rc != 0) {
    if (r->status == BUILD_OK) r->status = BUILD_NOT_BUILT;
  }
  if (lock >= 0) close(lock);
}
