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

#include "build_check.h"
#include "build_hash.h"
#include "build_step.h"

/* PTX for the ptx checks is made for one fixed virtual GPU, so the counts are the same on every machine. */
#define PTX_ARCH "-arch=compute_75"
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

/* ---------------------------------------------------------------- argument lists */

typedef struct args {
  char *v[96];
  int n;
} args;

static void add(args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(args *a, const char *fmt, ...) {
  if (a->n >= 95) return; /* the lists below are far shorter */
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&a->v[a->n], fmt, ap) >= 0) a->n++;
  va_end(ap);
  a->v[a->n] = NULL;
}
static void add_gencode(args *a, const build_tools *t) {
  for (int i = 0; i < t->n_gencode; i++) add(a, "%s", t->gencode[i]);
}
static void args_free(args *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  a->n = 0;
}

/* ---------------------------------------------------------------- the build folder */

typedef struct build_ctx {
  const build_spec *s;
  build_result *r;
  char adir[BUILD_PATH_MAX]; /* assignments/NN */
  int is_inline, has_model, has_tables, has_baselines;
  step_log log;
} build_ctx;

static void out_path(char *dst, const build_spec *s, const char *name) { snprintf(dst, BUILD_PATH_MAX, "%s/%s", s->out, name); }

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void remove_outputs(const build_spec *s) {
  char path[BUILD_PATH_MAX];
  for (size_t i = 0; i < sizeof OUTPUTS / sizeof *OUTPUTS; i++) {
    out_path(path, s, OUTPUTS[i]);
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
  out_path(path, s, "build.stamp");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = fscanf(f, "%63[^\n]\nfiles %64s\ntools %64s\nbench %d", head, files, tools, bench) == 4 && !strcmp(head, STAMP_VERSION);
  fclose(f);
  return ok ? 0 : -1;
}

static int write_stamp(const build_spec *s, const char *files, const char *tools, int bench) {
  char path[BUILD_PATH_MAX], tmp[BUILD_PATH_MAX + 16];
  out_path(path, s, "build.stamp");
  snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return -1;
  fprintf(f, STAMP_VERSION "\nfiles %s\ntools %s\nbench %d\n", files, tools, bench);
  if (fclose(f) != 0 || rename(tmp, path) != 0) return unlink(tmp), -1;
  return 0;
}

/* Whether every output a grading needs is there. */
static int outputs_present(const build_ctx *c) {
  const build_result *r = c->r;
  char obj[BUILD_PATH_MAX], tables[BUILD_PATH_MAX];
  out_path(obj, c->s, "student.o");
  out_path(tables, c->s, "model-tables");
  return exists(r->runner) && exists(r->ptx) && exists(obj) && (!c->has_model || exists(r->model)) && (!c->has_tables || exists(tables));
}

static int fail(build_result *r, build_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(build_result *r, build_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->reason, sizeof r->reason, fmt, ap);
  va_end(ap);
  r->status = st;
  return -1;
}

/* Runs one step whose output goes to tmp and, when it succeeds, is renamed to dst. */
static int step_to(build_ctx *c, step_kind kind, args *a, const char *tmp, const char *dst) {
  int rc = build_step(c->r, &c->log, kind, a->v);
  args_free(a);
  if (rc == 0 && rename(tmp, dst) != 0) rc = fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", dst, strerror(errno));
  if (rc) unlink(tmp);
  return rc;
}

/* ---------------------------------------------------------------- the steps */

/* The student's file alone: the student's flags, its assignment's folder and the staged folder. */
static int compile_student(build_ctx *c) {
  const build_spec *s = c->s;
  args a = {0};
  char obj[BUILD_PATH_MAX], dep[BUILD_PATH_MAX];
  out_path(obj, s, "student.o");
  out_path(dep, s, "student.d");
  add(&a, "%s", s->tools->nvcc);
  add(&a, "-O3");
  add(&a, "-std=c++17");
  add_gencode(&a, s->tools);
  if (c->is_inline) add(&a, "-rdc=true");
  add(&a, "-I%s", c->adir);
  add(&a, "-I%s", c->r->stage);
  add(&a, "-MD");
  add(&a, "-MF");
  add(&a, "%s", dep);
  add(&a, "-c");
  add(&a, "%s/%s", c->r->stage, s->conf->student);
  add(&a, "-o");
  add(&a, "%s", obj);
  int rc = build_step(c->r, &c->log, STEP_COMPILE, a.v);
  args_free(&a);
  return rc;
}

/* mk/inspect-student.sh OBJECT DEPFILE SOURCE_NAME NVCC_BIN_DIR assignments/NN STAGING */
static int inspect_student(build_ctx *c) {
  const build_spec *s = c->s;
  char bash[BUILD_PATH_MAX];
  build_find_program("bash", bash, sizeof bash);
  if (!bash[0]) return fail(c->r, BUILD_NOT_BUILT, "not built: bash is not on PATH (the inspection mk/inspect-student.sh needs it)");
  args a = {0};
  add(&a, "%s", bash);
  add(&a, "mk/inspect-student.sh");
  add(&a, "%s/student.o", s->out);
  add(&a, "%s/student.d", s->out);
  add(&a, "%s", s->conf->student);
  add(&a, "%s", s->tools->nvcc_dir);
  add(&a, "%s", c->adir);
  add(&a, "%s", c->r->stage);
  int rc = build_step(c->r, &c->log, STEP_INSPECT, a.v);
  args_free(&a);
  return rc;
}

/* nvcc, the runner's flags (the contracts and grader/runner on the include path), GENCODE. */
static void runner_flags(args *a, const build_ctx *c) {
  add(a, "%s", c->s->tools->nvcc);
  add(a, "-O3");
  add(a, "-std=c++17");
  add_gencode(a, c->s->tools);
  add(a, "-Igrader/protocol");
  add(a, "-Igrader/runner");
}

/* What the runner takes of the student's: the staged folder to #include from (inline), or student.o. */
static void add_student(args *a, const build_ctx *c) {
  if (c->is_inline) add(a, "-I%s", c->r->stage);
  else add(a, "%s/student.o", c->s->out);
}

/* runner.cu linked with the student's code and the runner library into OUT/runner,
 * or (bench) with -DHX_BENCH into OUT/bench. Course-owned code is warning-free:
 * -Werror for object links, where runner.cu is compiled without the student's file. */
static int link_runner(build_ctx *c, int bench) {
  args a = {0};
  char tmp[BUILD_PATH_MAX + 16], dep[BUILD_PATH_MAX], obj_dep[BUILD_PATH_MAX];
  const char *dst = bench ? c->r->bench : c->r->runner;
  snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
  out_path(dep, c->s, "runner.d");
  out_path(obj_dep, c->s, "student.d");
  runner_flags(&a, c);
  if (bench) add(&a, "-DHX_BENCH");
  if (!bench && !c->is_inline) {
    add(&a, "-Werror");
    add(&a, "all-warnings");
    add(&a, "-Xcompiler");
    add(&a, "-Wall,-Wextra,-Werror");
  }
  add(&a, "-I%s", c->adir);
  add(&a, "%s/runner.cu", c->adir);
  add_student(&a, c);
  add(&a, "build/runner/librunner.a");
  add(&a, "-lpthread");
  if (c->is_inline && !bench) {
    add(&a, "-MD");
    add(&a, "-MF");
    add(&a, "%s", dep);
  }
  add(&a, "-o");
  add(&a, "%s", tmp);
  if (build_step(c->r, &c->log, STEP_LINK, a.v)) return args_free(&a), unlink(tmp), -1;
  args_free(&a);
  if (c->is_inline && !bench && build_check_runner(c->r, dep, obj_dep, c->r->stage, c->s->conf->student, c->adir))
    return unlink(tmp), -1;
  if (rename(tmp, dst) != 0) return unlink(tmp), fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", dst, strerror(errno));
  return 0;
}

/* runner.ptx: the runner's PTX with the student's functions inlined (inline), or the student's file's alone. */
static int make_ptx(build_ctx *c) {
  args a = {0};
  char tmp[BUILD_PATH_MAX + 16], dep[BUILD_PATH_MAX], obj_dep[BUILD_PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", c->r->ptx, (int)getpid());
  out_path(dep, c->s, "ptx.d");
  out_path(obj_dep, c->s, "student.d");
  add(&a, "%s", c->s->tools->nvcc);
  add(&a, "-ptx");
  add(&a, PTX_ARCH);
  add(&a, "-std=c++17");
  if (c->is_inline) {
    add(&a, "-Igrader/protocol");
    add(&a, "-Igrader/runner");
  }
  add(&a, "-I%s", c->adir);
  add(&a, "-I%s", c->r->stage);
  if (c->is_inline) {
    add(&a, "%s/runner.cu", c->adir);
    add(&a, "-MD");
    add(&a, "-MF");
    add(&a, "%s", dep);
  } else {
    add(&a, "%s/%s", c->r->stage, c->s->conf->student);
  }
  add(&a, "-o");
  add(&a, "%s", tmp);
  if (build_step(c->r, &c->log, STEP_COMPILE, a.v)) return args_free(&a), unlink(tmp), -1;
  args_free(&a);
  if (c->is_inline && build_check_runner(c->r, dep, obj_dep, c->r->stage, c->s->conf->student, c->adir)) return unlink(tmp), -1;
  if (rename(tmp, c->r->ptx) != 0) return unlink(tmp), fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", c->r->ptx, strerror(errno));
  return 0;
}

/* model-tables: assignments/NN/model_tables.cu with student.o and the sandbox (the model runs it). */
static int link_tables(build_ctx *c) {
  args a = {0};
  char dst[BUILD_PATH_MAX], tmp[BUILD_PATH_MAX + 16];
  out_path(dst, c->s, "model-tables");
  snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
  runner_flags(&a, c);
  if (c->is_inline) add(&a, "-rdc=true");
  add(&a, "-I%s", c->adir);
  add(&a, "%s/model_tables.cu", c->adir);
  add(&a, "%s/student.o", c->s->out);
  add(&a, "build/runner/sandbox.o");
  add(&a, "-o");
  add(&a, "%s", tmp);
  return step_to(c, STEP_LINK, &a, tmp, dst);
}

/* model: assignments/NN/model.cu, a trusted CPU program with the course library; it never links the student's code. */
static int link_model(build_ctx *c) {
  args a = {0};
  char tmp[BUILD_PATH_MAX + 16];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", c->r->model, (int)getpid());
  add(&a, "%s", c->s->tools->nvcc);
  add(&a, "-O3");
  add(&a, "-std=c++17");
  add_gencode(&a, c->s->tools);
  add(&a, "-Igrader/protocol");
  add(&a, "-Igrader/lib");
  add(&a, "-I%s", c->adir);
  add(&a, "%s/model.cu", c->adir);
  add(&a, "build/lib/libcourse.a");
  add(&a, "-l:libpng16.a");
  add(&a, "-l:libz.a");
  add(&a, "-lm");
  add(&a, "-o");
  add(&a, "%s", tmp);
  return step_to(c, STEP_LINK, &a, tmp, c->r->model);
}

/* Every step of a build from nothing, in order; the first failure ends it. */
static int build_all(build_ctx *c) {
  if (compile_student(c) || inspect_student(c) || link_runner(c, 0) || make_ptx(c)) return -1;
  if (c->has_tables && link_tables(c)) return -1;
  if (c->has_model && link_model(c)) return -1;
  if (c->r->bench[0] && link_runner(c, 1)) return -1;
  return 0;
}

/* ---------------------------------------------------------------- one build */

static build_status status_of(submission_status s) {
  return s == SUBMISSION_REFUSED ? BUILD_REFUSED : s == SUBMISSION_MISSING ? BUILD_MISSING : BUILD_NOT_BUILT;
}

static void set_paths(build_ctx *c) {
  const build_spec *s = c->s;
  build_result *r = c->r;
  char probe[BUILD_PATH_MAX + 32];
  snprintf(c->adir, sizeof c->adir, "assignments/%s", s->conf->name);
  c->is_inline = s->conf->link == LINK_INLINE;
  snprintf(probe, sizeof probe, "%s/model.cu", c->adir);
  c->has_model = exists(probe);
  snprintf(probe, sizeof probe, "%s/model_tables.cu", c->adir);
  c->has_tables = exists(probe);
  snprintf(probe, sizeof probe, "%s/baselines.cu", c->adir);
  c->has_baselines = exists(probe);
  out_path(r->stage, s, "stage");
  out_path(r->runner, s, "runner");
  out_path(r->ptx, s, "runner.ptx");
  if (c->has_model) out_path(r->model, s, "model");
  if (c->has_baselines && s->bench) out_path(r->bench, s, "bench");
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
  submission_status st = submission_stage(s->dir, s->label, s->conf->student, c->r->stage, &c->r->files, &h, c->r->reason, sizeof c->r->reason);
  if (st != SUBMISSION_OK) return c->r->status = status_of(st), -1;
  if (build_hash_course(&h, c->adir, c->r->reason, sizeof c->r->reason)) return c->r->status = BUILD_NOT_BUILT, -1;
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
  int same = have_stamp && !strcmp(files, old_files) && !strcmp(tools, old_tools) && outputs_present(c);
  if (same && (!c->r->bench[0] || (old_bench && exists(c->r->bench)))) {
    c->r->reused = 1;
    printf("reused %s: its files are those of the build in %s (build.stamp)\n", s->label, s->out);
    return 0;
  }
  char log_path[BUILD_PATH_MAX];
  out_path(log_path, s, "build.log");
  if (!same) {
    remove_outputs(s);
    printf("NVCC %s/%s -> %s/runner\n", s->label, s->conf->student, s->out);
  } else {
    printf("NVCC %s/%s -> %s (with baselines)\n", s->label, s->conf->student, c->r->bench);
  }
  fflush(stdout);
  c->log.f = fopen(log_path, same ? "a" : "w");
  int rc = same ? link_runner(c, 1) : build_all(c);
  if (c->log.f) fclose(c->log.f);
  c->log.f = NULL;
  if (rc == 0 && write_stamp(s, files, tools, c->r->bench[0] != 0) != 0)
    rc = fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s/build.stamp: %s", s->out, strerror(errno));
  return rc;
}

void build_run(const build_spec *spec, build_result *r) {
  memset(r, 0, sizeof *r);
  build_ctx c = {.s = spec, .r = r};
  set_paths(&c);
  r->status = BUILD_OK;
  if (mkdir_p(spec->out) != 0) {
    fail(r, BUILD_NOT_BUILT, "not built: cannot make the build folder %s: %s", spec->out, strerror(errno));
    return;
  }
  /* One build of a folder at a time: a second grader waits here for the first. */
  char lock_path[BUILD_PATH_MAX];
  out_path(lock_path, spec, ".lock");
  int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  char files[65], old_files[65] = "", old_tools[65] = "";
  int old_bench = 0, have_stamp = read_stamp(spec, old_files, old_tools, &old_bench) == 0;
  int rc = hash_files(&c, files);
  if (rc == 0 && spec->no_build) {
    if (!have_stamp || strcmp(files, old_files) || !outputs_present(&c) || (r->bench[0] && !(old_bench && exists(r->bench))))
      rc = fail(r, BUILD_NOT_BUILT, "not built: %s holds no build of these files of %s (build it first: grade --build-only)", spec->out,
                spec->label);
    else
      r->reused = 1;
  } else if (rc == 0) {
    rc = build_needed(&c, files, have_stamp, old_files, old_tools, old_bench);
  }
  if (rc != 0 && !spec->no_build) remove_outputs(spec); /* nothing of an earlier build can be graded */
  if (rc != 0) {
    fprintf(stderr, "%s: %s\n", spec->label, r->reason);
    if (r->status == BUILD_OK) r->status = BUILD_NOT_BUILT;
  }
  if (lock >= 0) close(lock);
}
