/* build_recipe.c: the steps of the student's build, each one tool with an argument array (build_recipe.h). */
#include "build_recipe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_check.h"

/* PTX for the ptx checks is made for one fixed virtual GPU, so the counts are the same on every machine. */
#define PTX_ARCH "-arch=compute_75"

void build_out_path(char *dst, const build_spec *s, const char *name) { snprintf(dst, BUILD_PATH_MAX, "%s/%s", s->out, name); }

int build_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int build_fail(build_result *r, build_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->reason, sizeof r->reason, fmt, ap);
  va_end(ap);
  r->status = st;
  return -1;
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

/* Runs one step whose output goes to tmp and, when it succeeds, is renamed to dst. */
static int step_to(build_ctx *c, step_kind kind, args *a, const char *tmp, const char *dst) {
  int rc = build_step(c->r, &c->log, kind, a->v);
  args_free(a);
  if (rc == 0 && rename(tmp, dst) != 0) rc = build_fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", dst, strerror(errno));
  if (rc) unlink(tmp);
  return rc;
}

/* ---------------------------------------------------------------- the steps */

/* The student's file alone: the student's flags, its assignment's folder and the staged folder. */
static int compile_student(build_ctx *c) {
  const build_spec *s = c->s;
  args a = {0};
  char obj[BUILD_PATH_MAX], dep[BUILD_PATH_MAX];
  build_out_path(obj, s, "student.o");
  build_out_path(dep, s, "student.d");
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

/* grader/inspect/inspect-student.sh OBJECT DEPFILE SOURCE_NAME NVCC_BIN_DIR assignments/NN STAGING: the student's
 * file may include the files directly in its assignment's folder (the interface headers) and its own. */
static int inspect_student(build_ctx *c) {
  const build_spec *s = c->s;
  if (s->no_inspect) return 0; /* a course fixture (grade --no-inspect, --dir only) */
  char bash[BUILD_PATH_MAX];
  build_find_program("bash", bash, sizeof bash);
  if (!bash[0]) return build_fail(c->r, BUILD_NOT_BUILT, "not built: bash is not on PATH (the inspection grader/inspect/inspect-student.sh needs it)");
  args a = {0};
  add(&a, "%s", bash);
  add(&a, "grader/inspect/inspect-student.sh");
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

/* The assignment's runner/runner.cu linked with the student's code and the runner library into
 * OUT/runner, or (bench) with -DRUNNER_BENCH into OUT/bench (where it includes the declared
 * baselines). Course-owned code is warning-free: -Werror for object links, where runner.cu is
 * compiled without the student's file. */
static int link_runner(build_ctx *c, int bench) {
  args a = {0};
  char tmp[BUILD_PATH_MAX + 16], dep[BUILD_PATH_MAX], obj_dep[BUILD_PATH_MAX];
  const char *dst = bench ? c->r->bench : c->r->runner;
  snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
  build_out_path(dep, c->s, "runner.d");
  build_out_path(obj_dep, c->s, "student.d");
  runner_flags(&a, c);
  if (bench) add(&a, "-DRUNNER_BENCH");
  if (!bench && !c->is_inline) {
    add(&a, "-Werror");
    add(&a, "all-warnings");
    add(&a, "-Xcompiler");
    add(&a, "-Wall,-Wextra,-Werror");
  }
  add(&a, "-I%s", c->adir);
  add(&a, "%s/runner/runner.cu", c->adir);
  add_student(&a, c);
  add(&a, "build/runner/librunner.a");
  add(&a, "-lpthread");
  /* The GOT read-only at load (docs/grading.md, "The sandbox"): the sealed image covers it. */
  add(&a, "-Xlinker");
  add(&a, "-z,now,-z,relro");
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
  if (rename(tmp, dst) != 0) return unlink(tmp), build_fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", dst, strerror(errno));
  return 0;
}

/* runner.ptx: the runner's PTX with the student's functions inlined (inline), or the student's file's alone. */
static int make_ptx(build_ctx *c) {
  args a = {0};
  char tmp[BUILD_PATH_MAX + 16], dep[BUILD_PATH_MAX], obj_dep[BUILD_PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", c->r->ptx, (int)getpid());
  build_out_path(dep, c->s, "ptx.d");
  build_out_path(obj_dep, c->s, "student.d");
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
    add(&a, "%s/runner/runner.cu", c->adir);
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
  if (rename(tmp, c->r->ptx) != 0) return unlink(tmp), build_fail(c->r, BUILD_NOT_BUILT, "not built: cannot write %s: %s", c->r->ptx, strerror(errno));
  return 0;
}

/* model-tables: the declared model_tables (runner/NAME.cu) with student.o and the sandbox (the model runs it). */
static int link_tables(build_ctx *c) {
  args a = {0};
  char dst[BUILD_PATH_MAX], tmp[BUILD_PATH_MAX + 16];
  build_out_path(dst, c->s, "model-tables");
  snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
  runner_flags(&a, c);
  if (c->is_inline) add(&a, "-rdc=true");
  add(&a, "-I%s", c->adir);
  add(&a, "%s/%s", c->adir, c->s->conf->model_tables);
  add(&a, "%s/student.o", c->s->out);
  add(&a, "build/runner/sandbox.o");
  add(&a, "build/runner/guard.o");
  add(&a, "-o");
  add(&a, "%s", tmp);
  return step_to(c, STEP_LINK, &a, tmp, dst);
}

/* model: the declared model (judge/NAME.cu), a trusted CPU program with the course library; it never links the student's code. */
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
  add(&a, "%s/%s", c->adir, c->s->conf->model);
  add(&a, "build/lib/libcourse.a");
  add(&a, "-l:libpng16.a");
  add(&a, "-l:libz.a");
  add(&a, "-lm");
  add(&a, "-o");
  add(&a, "%s", tmp);
  return step_to(c, STEP_LINK, &a, tmp, c->r->model);
}

/* Every step of a build from nothing, in order; the first failure ends it. */
int build_recipe_all(build_ctx *c) {
  if (compile_student(c) || inspect_student(c) || link_runner(c, 0) || make_ptx(c)) return -1;
  if (c->has_tables && link_tables(c)) return -1;
  if (c->has_model && link_model(c)) return -1;
  if (c->r->bench[0] && link_runner(c, 1)) return -1;
  return 0;
}


int build_recipe_bench(build_ctx *c) { return link_runner(c, 1); }
