/* test_model03.c: assignment 03's CPU model in two processes (docs/grading.md, threat
 * model). The trusted model (build/<src>/03-blelloch/model) writes the result lines; the
 * student's functions run only in the sandboxed table program beside it (model-tables),
 * whose descriptor 3 is a pipe the model reads raw values from. A table program that forges
 * result lines on every descriptor gets no line onto the model's result channel: the model
 * exits 3 with one line that says what went wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "tests.h"

#define MODEL_DIR "build/%s/03-blelloch/"

static const char *nvcc(void) {
  const char *n = getenv("NVCC");
  return n && *n ? n : "/usr/local/cuda/bin/nvcc";
}

/* Fails the test unless src's model and table program are built (make test builds both). */
static void need_model(const char *src) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "test -x " MODEL_DIR "model && test -x " MODEL_DIR "model-tables", src, src);
  ck_assert_msg(run_shell(cmd) == 0,
                "build/%s/03-blelloch/model or model-tables is missing: make build/%s/03-blelloch/model "
                "build/%s/03-blelloch/model-tables",
                src, src, src);
}

typedef struct {
  int rc;
  char *out, *err, *res; /* stdout, stderr, what reached descriptor 3 */
} model_run;

/* Runs `model ARGS --result-fd 3` from the repository root, descriptor 3 a file in dir. */
static model_run run_model(const char *dir, const char *model, const char *args) {
  char cmd[2048], path[512];
  snprintf(cmd, sizeof cmd, "%s %s --result-fd 3 3> '%s/res' > '%s/out' 2> '%s/err' < /dev/null", model, args, dir, dir, dir);
  model_run r = {.rc = run_shell(cmd)};
  snprintf(path, sizeof path, "%s/out", dir);
  r.out = read_text(path);
  snprintf(path, sizeof path, "%s/err", dir);
  r.err = read_text(path);
  snprintf(path, sizeof path, "%s/res", dir);
  r.res = read_text(path);
  ck_assert(r.out && r.err && r.res);
  return r;
}

static void run_free(model_run *r) {
  free(r->out);
  free(r->err);
  free(r->res);
}

/* The one result line of case c, variant blelloch_padded, on the result channel. */
static result_line only_line(const model_run *r, const char *c) {
  char err[160];
  result_line line;
  ck_assert_msg(text_is_one_line(r->res), "case %s: want one result line, got:\n%s", c, r->res);
  ck_assert_msg(result_parse(r->res, &line, err, sizeof err) == 0, "case %s: %s:\n%s", c, err, r->res);
  ck_assert_str_eq(line.case_name, c);
  ck_assert_str_eq(line.variant, "blelloch_padded");
  ck_assert_int_eq(line.checked, 1);
  return line;
}

static const char *const CASES[] = {"banks", "coalescing", "tree"};

/* The solution's model accepts every case, as grade.conf's checks want. */
START_TEST(test_model03_solution_passes) {
  need_model("solutions");
  char *dir = make_temp_dir("model03");
  for (int i = 0; i < 3; i++) {
    char args[128];
    snprintf(args, sizeof args, "--variant blelloch_padded --case %s --seed 1 --check", CASES[i]);
    model_run r = run_model(dir, "build/solutions/03-blelloch/model", args);
    ck_assert_msg(r.rc == 0, "case %s: the solution's model exits %d:\n%s", CASES[i], r.rc, r.err);
    result_line line = only_line(&r, CASES[i]);
    ck_assert_msg(line.ok == 1 && line.mismatches == 0, "case %s: the solution fails:\n%s%s", CASES[i], r.res, r.out);
    run_free(&r);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The starter's model runs and rejects banks (grade.conf: expect_starter = fail). */
START_TEST(test_model03_starter_fails_banks) {
  need_model("starter");
  char *dir = make_temp_dir("model03");
  model_run r = run_model(dir, "build/starter/03-blelloch/model", "--variant blelloch_padded --case banks --seed 1 --check");
  ck_assert_msg(r.rc == 0, "the starter's model exits %d:\n%s", r.rc, r.err);
  result_line line = only_line(&r, "banks");
  ck_assert_msg(line.ok == 0 && line.mismatches > 0, "the starter passes banks:\n%s", r.res);
  ck_assert_msg(strstr(r.out, "have a bank conflict") != NULL, "no explanation on stdout:\n%s", r.out);
  run_free(&r);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A student file whose padded_index, on the host, writes the solution's passing banks
 * line to descriptors 1..9 and ends the process with status 0. */
static const char FORGE[] =
    "#include <unistd.h>\n"
    "#include \"blelloch.h\"\n"
    "__device__ void blelloch_scan_tree(int layout, unsigned *temp, int tree) { (void)layout, (void)temp, (void)tree; }\n"
    "__host__ __device__ int padded_index(int i) {\n"
    "#ifndef __CUDA_ARCH__\n"
    "  static const char line[] = \"%s\";\n"
    "  for (int fd = 1; fd <= 9; fd++)\n"
    "    if (write(fd, line, sizeof line - 1) < 0) continue;\n"
    "  _exit(0);\n"
    "#endif\n"
    "  return i + (i >> 5);\n"
    "}\n"
    "__host__ __device__ int thread_element(int t, int k, int tree) { return t + k * (tree / 2); }\n"
    "__host__ __device__ int tree_size(int len) { int t = 2; while (t < len) t *= 2; return t; }\n";

/* The last line of text (without its newline), in line. */
static void last_line(const char *text, char *line, size_t cap) {
  size_t len = strlen(text);
  if (len && text[len - 1] == '\n') len--;
  size_t start = len;
  while (start > 0 && text[start - 1] != '\n') start--;
  snprintf(line, cap, "%.*s", (int)(len - start), text + start);
}

START_TEST(test_model03_forged_tables) {
  need_model("solutions");
  need_model("starter");
  char *dir = make_temp_dir("model03");
  /* The line to forge: the solution model's own, which the grader would accept. */
  model_run good = run_model(dir, "build/solutions/03-blelloch/model", "--variant blelloch_padded --case banks --seed 1 --check");
  ck_assert_msg(good.rc == 0 && strstr(good.res, " ok=1 "), "the solution's banks line:\n%s%s", good.res, good.err);
  char forged[600], src[4096], path[512], cmd[4096];
  snprintf(forged, sizeof forged, "%.*s\\n", (int)strcspn(good.res, "\n"), good.res);
  run_free(&good);
  snprintf(src, sizeof src, FORGE, forged);
  snprintf(path, sizeof path, "%s/forge/blelloch.cu", dir);
  write_text(path, src, 0);
  /* Built as the grader's build makes the table program: the student's file with -rdc=true,
   * runner/model_tables.cu, the sandbox; beside a copy of the trusted model. */
  snprintf(cmd, sizeof cmd,
           "'%s' -std=c++17 -arch=sm_75 -rdc=true -Igrader/protocol -Igrader/runner -Iassignments/03-blelloch -I'%s/forge' "
           "'%s/forge/blelloch.cu' assignments/03-blelloch/runner/model_tables.cu build/runner/sandbox.o build/runner/guard.o -o '%s/model-tables' "
           "> '%s/nvcc.log' 2>&1 && cp build/starter/03-blelloch/model '%s/model'",
           nvcc(), dir, dir, dir, dir, dir);
  if (run_shell(cmd) != 0) {
    snprintf(path, sizeof path, "%s/nvcc.log", dir);
    char *log = read_text(path);
    ck_abort_msg("the forging table program does not build:\n%s\n%s", cmd, log ? log : "");
  }
  snprintf(path, sizeof path, "%s/model", dir);
  model_run r = run_model(dir, path, "--case banks --variant blelloch_padded --seed 1 --check");
  ck_assert_msg(r.rc == 3, "want exit 3 from the model, got %d:\n%s", r.rc, r.err);
  char why[600];
  last_line(r.err, why, sizeof why);
  ck_assert_msg(!strncmp(why, "03-blelloch model: the table program ", 37), "want the model's one line last on stderr, got:\n%s",
                r.err);
  ck_assert_msg(strstr(why, "wrote something other than its tables"), "the line does not say what was wrong: %s", why);
  ck_assert_msg(strstr(r.err, "03-blelloch model: the table program ") == strstr(r.err, why),
                "more than one line from the model on stderr:\n%s", r.err);
  ck_assert_msg(!strstr(r.res, "ok=1"), "a forged line reached the result channel:\n%s", r.res);
  ck_assert_msg(!*r.res, "the model wrote to its result channel:\n%s", r.res);
  ck_assert_msg(!strstr(r.out, "03-blelloch CPU model"), "the model analysed without tables:\n%s", r.out);
  run_free(&r);
  /* With the result channel on stdout, the table program's stdout is not that channel. */
  char cmd2[1024];
  snprintf(cmd2, sizeof cmd2, "'%s/model' --case banks --variant blelloch_padded --result-fd 1 > '%s/out1' 2> /dev/null", dir, dir);
  ck_assert_int_eq(run_shell(cmd2), 3);
  snprintf(path, sizeof path, "%s/out1", dir);
  char *out1 = read_text(path);
  ck_assert_msg(out1 && !strstr(out1, "ok=1"), "a forged line reached stdout, the result channel:\n%s", out1);
  free(out1);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *model03_suite(void) {
  Suite *s = suite_create("model03");
  TCase *t = tcase_create("the 03 model and its table program");
  tcase_set_timeout(t, 60); /* nvcc builds the forging table program (about 10 s) */
  tcase_add_test(t, test_model03_solution_passes);
  tcase_add_test(t, test_model03_starter_fails_banks);
  tcase_add_test(t, test_model03_forged_tables);
  suite_add_tcase(s, t);
  return s;
}
