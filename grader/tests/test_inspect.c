/* test_inspect.c: mk/inspect-student.sh on the objects of grader/tests/inspect/, compiled as the runner's build compiles a student's file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"

/* The objects: a fixture compiled as 01-03 build a student's file (-rdc=true),
 * or as 04 and 05 do (-O3, whole-program device code: optimized host code, the
 * fat binary in .nv_fatbin). Slowest first, so that the parallel compile ends sooner. */
static const struct {
  const char *obj, *src, *flags;
} FIXTURES[] = {
    {"cub_direct", "cub_direct", "-rdc=true"},
    {"thrust_alias", "thrust_alias", "-rdc=true"},
    {"cub_macro", "cub_macro", "-rdc=true"},
    {"libcudacxx", "libcudacxx", "-rdc=true"},
    {"clean", "clean", "-rdc=true"},
    {"iostream", "iostream", "-rdc=true"},
    {"ctor_attribute", "ctor_attribute", "-rdc=true"},
    {"ctor_global", "ctor_global", "-rdc=true"},
    {"dtor_attribute", "dtor_attribute", "-rdc=true"},
    {"device_ns", "device_ns", "-rdc=true"},
    {"clean_O3", "clean", "-O3"},
    {"iostream_O3", "iostream", "-O3"},
    {"ctor_global_O3", "ctor_global", "-O3"},
};
#define N_FIXTURES (sizeof FIXTURES / sizeof *FIXTURES)

static char *objs;           /* the temporary folder of NAME.o, NAME.d, NAME.log, NAME.rc */
static char repo[1024];      /* the tests run from the repository root */
static char bindir[1024];    /* NVCC's folder, where the script looks for cuobjdump */

static const char *nvcc(void) {
  const char *n = getenv("NVCC");
  return n && *n ? n : "/usr/local/cuda/bin/nvcc";
}

/* Compiles every fixture once for the whole case, as many at a time as there
 * are cores (the CUB and Thrust ones take most of the time); each one's exit
 * status goes to NAME.rc, which its tests check. */
static void compile_fixtures(void) {
  if (!getcwd(repo, sizeof repo)) repo[0] = 0;
  snprintf(bindir, sizeof bindir, "%s", nvcc());
  char *slash = strrchr(bindir, '/');
  if (slash) *slash = 0;
  else snprintf(bindir, sizeof bindir, ".");
  objs = make_temp_dir("inspect");
  char cmd[4096];
  int len = snprintf(cmd, sizeof cmd, "printf '%%s %%s %%s\\n'");
  for (size_t i = 0; i < N_FIXTURES; i++)
    len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s %s %s", FIXTURES[i].obj, FIXTURES[i].src, FIXTURES[i].flags);
  snprintf(cmd + len, sizeof cmd - (size_t)len,
           " | INSPECT_NVCC='%s' INSPECT_DIR='%s' xargs -P \"$(nproc)\" -L1 sh -c '"
           "\"$INSPECT_NVCC\" -c $3 -std=c++17 -arch=sm_75 -MD -MF \"$INSPECT_DIR/$1.d\" -o \"$INSPECT_DIR/$1.o\" "
           "\"grader/tests/inspect/$2.cu\" > \"$INSPECT_DIR/$1.log\" 2>&1; echo $? > \"$INSPECT_DIR/$1.rc\"' sh",
           nvcc(), objs);
  run_shell(cmd);
}

static void remove_fixtures(void) {
  remove_dir(objs);
  free(objs);
}

/* Asserts that fixture name compiled, with the compiler's output if not. */
static void need_fixture(const char *name) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.rc", objs, name);
  char *rc = read_text(path);
  snprintf(path, sizeof path, "%s/%s.log", objs, name);
  char *log = read_text(path);
  ck_assert_msg(rc && atoi(rc) == 0, "%s -c: the object %s did not compile:\n%s", nvcc(), name, log ? log : "(no output)");
  free(rc);
  free(log);
}

typedef struct {
  int rc;
  char *out, *err;
} inspect_run;

/* Runs the script on OBJECT DEPFILE SOURCE_NAME [BINDIR] (shell words) from
 * folder cwd, with an environment prefix env ("" for none). */
static inspect_run inspect_in(const char *cwd, const char *env, const char *obj, const char *dep, const char *src,
                              const char *bin) {
  char cmd[4096], path[1200];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s bash '%s/mk/inspect-student.sh' %s %s %s %s > '%s/out' 2> '%s/err'", cwd, env,
           repo, obj, dep, src, bin, objs, objs);
  inspect_run r = {.rc = run_shell(cmd)};
  snprintf(path, sizeof path, "%s/out", objs);
  r.out = read_text(path);
  snprintf(path, sizeof path, "%s/err", objs);
  r.err = read_text(path);
  ck_assert(r.out && r.err);
  return r;
}

/* The script on fixture obj's object with fixture dep's depfile, cuobjdump from bin. */
static inspect_run inspect(const char *obj, const char *dep, const char *bin) {
  char o[1200], d[1200], b[1200];
  need_fixture(obj);
  need_fixture(dep);
  snprintf(o, sizeof o, "'%s/%s.o'", objs, obj);
  snprintf(d, sizeof d, "'%s/%s.d'", objs, dep);
  snprintf(b, sizeof b, "'%s'", bin);
  char src[128];
  snprintf(src, sizeof src, "%s.cu", obj);
  return inspect_in(repo, "", o, d, src, b);
}

static void run_free(inspect_run *r) {
  free(r->out);
  free(r->err);
}

static void expect_accepted(inspect_run r, const char *what) {
  ck_assert_msg(r.rc == 0 && !*r.out && !*r.err, "%s: want exit 0 and no output, got %d:\n%s%s", what, r.rc, r.out, r.err);
  run_free(&r);
}

/* Exit 1, one line on stdout that starts `refused: SOURCE_NAME ` and holds every
 * string of want (NULL-terminated), nothing on stderr. */
static void expect_refused(inspect_run r, const char *what, const char *const *want) {
  ck_assert_msg(r.rc == 1, "%s: want exit 1 (refused), got %d:\n%s%s", what, r.rc, r.out, r.err);
  ck_assert_msg(text_is_one_line(r.out) && !strncmp(r.out, "refused: ", 9), "%s: want one 'refused: ' line, got:\n%s",
                what, r.out);
  for (; *want; want++) ck_assert_msg(strstr(r.out, *want) != NULL, "%s: the line does not say '%s':\n%s", what, *want, r.out);
  ck_assert_msg(!*r.err, "%s: refused with something on stderr:\n%s", what, r.err);
  run_free(&r);
}

/* ---------------------------------------------------------------- each fixture as the build inspects it */

static const struct {
  const char *obj, *dep;   /* the object of one fixture, the depfile of another (a depfile that lies) */
  const char *want[3];     /* NULL: accepted; else what the refusal line says */
} CASES[] = {
    {"clean", "clean", {NULL}},
    {"libcudacxx", "libcudacxx", {NULL}}, /* libcu++ is allowed */
    {"iostream", "iostream", {NULL}},     /* std::ios_base::Init is the one global object allowed */
    {"cub_direct", "cub_direct", {"refused: cub_direct.cu uses CUB (it includes cub/cub.cuh)", NULL}},
    {"cub_macro", "cub_macro", {"refused: cub_macro.cu uses CUB (it includes cub/device/device_scan.cuh)", NULL}},
    {"thrust_alias", "thrust_alias", {"refused: thrust_alias.cu uses Thrust (it includes thrust/scan.h)", NULL}},
    /* the symbols catch what a depfile misses (a vendored, renamed copy) */
    {"cub_direct", "clean", {"uses CUB (symbol ", "cub::", NULL}},
    {"thrust_alias", "clean", {"uses Thrust (symbol ", "thrust::", NULL}},
    {"ctor_attribute", "ctor_attribute", {"defines a static constructor (hx_evil)", "only when the harness calls it", NULL}},
    {"ctor_global", "ctor_global", {"defines a global object with a constructor (fx_warmup::fx_warmup)", NULL}},
    {"dtor_attribute", "dtor_attribute", {"defines a static destructor (fx_late)", NULL}},
    /* without -rdc, host code at -O3: the same one nvcc constructor; the global's constructor is inlined */
    {"clean_O3", "clean_O3", {NULL}},
    {"iostream_O3", "iostream_O3", {NULL}},
    {"ctor_global_O3", "ctor_global_O3", {"initializes a global at load time (with puts)", NULL}},
};
#define N_CASES (sizeof CASES / sizeof *CASES)

START_TEST(test_inspect_fixture) {
  char what[200];
  snprintf(what, sizeof what, "%s.o with %s.d", CASES[_i].obj, CASES[_i].dep);
  inspect_run r = inspect(CASES[_i].obj, CASES[_i].dep, bindir);
  if (!CASES[_i].want[0]) expect_accepted(r, what);
  else expect_refused(r, what, CASES[_i].want);
}
END_TEST

/* cub:: only in device code (a template instantiated by a kernel): only
 * cuobjdump sees it; without cuobjdump next to nvcc the step is skipped. */
START_TEST(test_inspect_device_symbols) {
  char path[1200];
  snprintf(path, sizeof path, "%s/cuobjdump", bindir);
  inspect_run r = inspect("device_ns", "device_ns", bindir);
  if (access(path, X_OK) == 0) {
    const char *const want[] = {"uses CUB (device symbol ", "cub::fx_twice", NULL};
    expect_refused(r, "device_ns.o", want);
  } else {
    expect_accepted(r, "device_ns.o without cuobjdump");
  }
}
END_TEST

/* A stand-in cuobjdump in a folder of its own, with the body of a sh script. */
static char *fake_cuobjdump(const char *body) {
  char *dir = make_temp_dir("inspect-bin"), path[512], script[1024];
  snprintf(path, sizeof path, "%s/cuobjdump", dir);
  snprintf(script, sizeof script, "#!/bin/sh\n%s", body);
  write_text(path, script, 1);
  return dir;
}

START_TEST(test_inspect_device_symbols_parsed) {
  char *bin = fake_cuobjdump("cat <<'EOF'\nFatbin elf code:\n================\narch = sm_75\n\nsymbols:\n"
                             "STT_FUNC         STB_GLOBAL STO_ENTRY      _Z9fx_kernelPj\n"
                             "STT_FUNC         STB_WEAK   STV_DEFAULT    _ZNK6thrust6detail7fx_funcEv\nEOF\n");
  const char *const want[] = {"refused: clean.cu uses Thrust (device symbol thrust::detail::fx_func() const)", NULL};
  expect_refused(inspect("clean", "clean", bin), "a Thrust device symbol", want);
  remove_dir(bin);
  free(bin);
  /* N3cub inside a name, not followed by the next name's length, is no namespace */
  bin = fake_cuobjdump("echo 'STT_FUNC         STB_GLOBAL STO_ENTRY      _Z13fx_N3cubbler6v'\n");
  expect_accepted(inspect("clean", "clean", bin), "no CUB device symbol");
  remove_dir(bin);
  free(bin);
}
END_TEST

/* A cuobjdump that is there but fails is reported, not skipped. */
START_TEST(test_inspect_cuobjdump_fails) {
  char *bin = fake_cuobjdump("echo 'cuobjdump fatal   : boom' >&2\nexit 1\n");
  inspect_run r = inspect("clean", "clean", bin);
  ck_assert_msg(r.rc == 2 && !*r.out && text_is_one_line(r.err) && strstr(r.err, "inspect-student: ") == r.err &&
                    strstr(r.err, "cuobjdump fatal   : boom"),
                "a failing cuobjdump: want exit 2 and one inspect-student line on stderr, got %d:\n%s%s", r.rc, r.out, r.err);
  run_free(&r);
  remove_dir(bin);
  free(bin);
}
END_TEST

/* ---------------------------------------------------------------- depfiles written by hand */

/* The script on the clean object with a depfile of text, run from cwd. */
static inspect_run inspect_depfile(const char *cwd, const char *text) {
  char dep[1200], o[1200], d[1200];
  need_fixture("clean");
  snprintf(dep, sizeof dep, "%s/hand.d", objs);
  write_text(dep, text, 0);
  snprintf(o, sizeof o, "'%s/clean.o'", objs);
  snprintf(d, sizeof d, "'%s'", dep);
  return inspect_in(cwd, "", o, d, "large_scan.cu", "/nonexistent");
}

START_TEST(test_inspect_depfile_syntax) {
  /* an escaped space in a path, headers after the continuation lines */
  const char *const want[] = {"refused: large_scan.cu uses Thrust (it includes thrust/scan.h)", NULL};
  expect_refused(inspect_depfile(repo, "student.o : large_scan.cu \\\n    /usr/include/stdio.h \\\n"
                                       "    /opt/my\\ cuda/include/cccl/thrust/scan.h\n"),
                 "escaped space", want);
  /* libcu++ and a name that only contains cub */
  expect_accepted(inspect_depfile(repo, "student.o: large_scan.cu /cuda/include/cccl/cuda/std/atomic \\\n"
                                        "  /cuda/include/cccl/cuda/atomic starter/04/cubic.h starter/04/mycub/x.h\n"),
                  "libcu++ and cub-like names");
  /* a vendored copy in the student's folder */
  const char *const vendored[] = {"uses CUB (it includes cub/device/device_scan.cuh)", NULL};
  expect_refused(inspect_depfile(repo, "student.o: large_scan.cu starter/04-large-scan/cub/device/device_scan.cuh\n"),
                 "a vendored CUB", vendored);
}
END_TEST

/* A checkout under a folder named thrust is not Thrust: paths are matched below
 * the current folder. */
START_TEST(test_inspect_checkout_path) {
  char dir[1200], text[4096];
  snprintf(dir, sizeof dir, "%s/thrust/course", objs);
  write_text(strcat(strcpy(text, dir), "/.keep"), "", 0);
  snprintf(text, sizeof text, "student.o: %s/starter/04-large-scan/large_scan.cu %s/grader/harness/harness.h\n", dir,
           dir);
  expect_accepted(inspect_depfile(dir, text), "a checkout under thrust/");
}
END_TEST

START_TEST(test_inspect_bad_arguments) {
  need_fixture("clean");
  char o[1200], d[1200], empty[1200];
  snprintf(o, sizeof o, "'%s/clean.o'", objs);
  snprintf(d, sizeof d, "'%s/clean.d'", objs);
  snprintf(empty, sizeof empty, "%s/empty.d", objs);
  write_text(empty, "", 0);
  snprintf(empty, sizeof empty, "'%s/empty.d'", objs);
  char src_as_obj[1200];
  snprintf(src_as_obj, sizeof src_as_obj, "'%s/grader/tests/inspect/clean.cu'", repo);
  const struct {
    const char *obj, *dep, *src, *say;
  } bad[] = {
      {"", "", "", "usage"},
      {"/nonexistent/student.o", d, "x.cu", "no object file"},
      {o, "/nonexistent/student.d", "x.cu", "no dependency file"},
      {src_as_obj, d, "x.cu", "not an ELF object"},
      {o, empty, "x.cu", "lists no prerequisites"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    inspect_run r = inspect_in(repo, "", bad[i].obj, bad[i].dep, bad[i].src, "");
    ck_assert_msg(r.rc == 2 && !*r.out && text_is_one_line(r.err) && strstr(r.err, "inspect-student: ") == r.err &&
                      strstr(r.err, bad[i].say),
                  "bad arguments %zu: want exit 2 and one 'inspect-student: ... %s' line on stderr, got %d:\n%s%s", i,
                  bad[i].say, r.rc, r.out, r.err);
    run_free(&r);
  }
}
END_TEST

/* The script leaves no file behind, even for a refusal with a long symbol list
 * (bash may back a here-string with a file in TMPDIR). */
START_TEST(test_inspect_no_temp_files) {
  need_fixture("thrust_alias");
  need_fixture("clean");
  char *tmp = make_temp_dir("inspect-tmp"), o[1200], d[1200], env[400], cmd[600];
  snprintf(o, sizeof o, "'%s/thrust_alias.o'", objs);
  snprintf(d, sizeof d, "'%s/clean.d'", objs);
  snprintf(env, sizeof env, "TMPDIR='%s'", tmp);
  inspect_run r = inspect_in(repo, env, o, d, "x.cu", "/nonexistent");
  ck_assert_msg(r.rc == 1, "thrust_alias.o with clean.d: want exit 1, got %d:\n%s%s", r.rc, r.out, r.err);
  run_free(&r);
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", tmp);
  ck_assert_msg(run_shell(cmd) == 0, "the script left files in TMPDIR %s", tmp);
  remove_dir(tmp);
  free(tmp);
}
END_TEST

Suite *inspect_suite(void) {
  Suite *s = suite_create("inspect");
  TCase *t = tcase_create("student object");
  /* nvcc runs once for the case, in the runner; the tests only run the script */
  tcase_add_unchecked_fixture(t, compile_fixtures, remove_fixtures);
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, test_inspect_fixture, 0, (int)N_CASES);
  tcase_add_test(t, test_inspect_device_symbols);
  tcase_add_test(t, test_inspect_device_symbols_parsed);
  tcase_add_test(t, test_inspect_cuobjdump_fails);
  tcase_add_test(t, test_inspect_depfile_syntax);
  tcase_add_test(t, test_inspect_checkout_path);
  tcase_add_test(t, test_inspect_bad_arguments);
  tcase_add_test(t, test_inspect_no_temp_files);
  suite_add_tcase(s, t);
  return s;
}
