/* test_instructor.c: the instructor's tools (mk/instructor.mk): make timings on a fake
 * reference and its --plot from the CSV, the Gradescope autograder in a fake
 * /autograder tree, and make grade-all over three fake students. The handout has its own file (test_handout.c); make
 * help's entries for all of them are checked with the other targets in test_repo.c.
 * Run from the repo root after `make test-builds`. */
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "course.h"
#include "tests.h"

/* ------------------------------------------------------------ make timings */

/* A fake reference: two variants, three cases. "fast" gets 2% slower on each of
 * five runs in turn (spread 1.08); "plain" is steady (spread 1.00). It counts its
 * runs in a file beside it. */
static const char FAKE_REF[] =
    "#!/bin/bash\n"
    "if [ \"$1\" = --list ]; then\n"
    "  printf 'assignment 01-fake\\nvariant plain steady\\nvariant fast noisy\\nvariant copy_d2d the copy\\n"
    "case n1k 1000 1 5 0\\ncase n1m 1000000 2 5 0\\ncase n2^24 16777216 3 5 0\\n'; exit 0; fi\n"
    "%s\n" /* a line that may cut the run short */
    "v=$2; k=$(cat \"$(dirname \"$0\")/count\" 2>/dev/null || echo 0); echo $((k + 1)) > \"$(dirname \"$0\")/count\"\n"
    "[ \"$v\" = fast ] && f=$((k %% 5)) || f=0\n"
    "for c in 'n1k 1000 1.0' 'n1m 1000000 2.0' 'n2^24 16777216 4.0'; do set -- $c\n"
    "  ms=$(awk -v t=$3 -v f=$f 'BEGIN { print t * (1 + 0.02 * f) }')\n"
    "  echo \"result case=$1 variant=$v n=$2 seed=1 ok=%d checked=1 median_ms=$ms min_ms=$ms reps=5 verified=5 "
    "bad_reps=%d mismatches=%d first_bad=%d first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\" >&3\n"
    "done\n";

static const char FAKE_CONF[] = "[assignment]\nname = 01-fake\ntitle = fake\nstudent = fake.cu\nlink = object\ntimeout = 10\n\n"
                                "[perf-plain]\nkind = perf\ntitle = p\nvariant = plain\ncases = n1m\nfull_ratio = 1.10\nfloor = 0.5\npoints = 5\n\n"
                                "[perf-fast]\nkind = perf\ntitle = f\nvariant = fast\ncases = n2^24\nfull_ratio = 1.10\nfloor = 0.5\npoints = 5\n";

/* Writes the fake into dir and runs the timings tool on it; returns its exit status. */
static int run_timings(const char *dir, const char *cut_short, int wrong) {
  char path[512], script[4096], cmd[2048];
  snprintf(script, sizeof script, FAKE_REF, cut_short, !wrong, wrong ? 5 : 0, wrong ? 3 : 0, wrong ? 7 : -1);
  snprintf(path, sizeof path, "%s/ref", dir);
  write_text(path, script, 1);
  snprintf(path, sizeof path, "%s/grade.conf", dir);
  write_text(path, FAKE_CONF, 0);
  snprintf(cmd, sizeof cmd,
           "build/tools/timings --ref '%s/ref' --conf '%s/grade.conf' --gpu 'NVIDIA Fake GPU (x)' --dir '%s/out' --runs 5 "
           "> '%s/log' 2>&1",
           dir, dir, dir, dir);
  return run_shell(cmd);
}

START_TEST(test_timings_csv_and_thresholds) {
  ck_assert_int_eq(run_shell("make -s build/tools/timings > /dev/null"), 0);
  char *dir = make_temp_dir("timings"), path[512];
  int rc = run_timings(dir, "", 0);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert_msg(rc == 0, "timings exited %d:\n%s", rc, log);
  /* The file is named for the GPU; one row per variant and case. */
  snprintf(path, sizeof path, "%s/out/nvidia-fake-gpu-x.csv", dir);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "no %s:\n%s", path, log);
  char line[512];
  ck_assert(fgets(line, sizeof line, f) != NULL);
  ck_assert_str_eq(line, "gpu,assignment,variant,case,n,runs,best_ms,median_ms,worst_ms,spread\n");
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    char variant[32], cname[32];
    unsigned long long n;
    int runs;
    double best, median, worst, spread;
    int got = sscanf(line, "\"NVIDIA Fake GPU (x)\",01-fake,%31[^,],%31[^,],%llu,%d,%lf,%lf,%lf,%lf", variant, cname, &n, &runs, &best,
                     &median, &worst, &spread);
    ck_assert_msg(got == 8, "bad CSV row: %s", line);
    double base = !strcmp(cname, "n1k") ? 1.0 : !strcmp(cname, "n1m") ? 2.0 : 4.0;
    double want_spread = !strcmp(variant, "fast") ? 1.08 : 1.0;
    ck_assert_int_eq(runs, 5);
    ck_assert_msg(best > base * 0.999 && best < base * 1.001, "%s/%s: best %g, want %g", variant, cname, best, base);
    ck_assert_msg(worst > base * want_spread * 0.999 && worst < base * want_spread * 1.001, "%s/%s: worst %g", variant, cname, worst);
    ck_assert_msg(spread > want_spread - 1e-3 && spread < want_spread + 1e-3, "%s/%s: spread %g, want %g", variant, cname, spread,
                  want_spread);
    rows++;
  }
  fclose(f);
  ck_assert_int_eq(rows, 6);
  /* The suggestion rule of docs/grading.md, "Statistics of the instructor's tools": the least
   * suggestion for a steady case, the next multiple of 0.05 past the margin for a noisy one. */
  ck_assert_msg(strstr(log, "perf-plain") && strstr(log, "spread 1.000 -> full_ratio = 1.05"), "steady case:\n%s", log);
  ck_assert_msg(strstr(log, "perf-fast") && strstr(log, "spread 1.080 -> full_ratio = 1.15"), "noisy case:\n%s", log);
  snprintf(path, sizeof path, "%s/out/nvidia-fake-gpu-x.png", dir);
  ck_assert_msg(access(path, R_OK) == 0, "no plot %s:\n%s", path, log);
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A reference that finds no GPU (exit 3) stops the tool with 3; a wrong one with 1. */
START_TEST(test_timings_refuses_bad_reference) {
  ck_assert_int_eq(run_shell("make -s build/tools/timings > /dev/null"), 0);
  char *dir = make_temp_dir("timings-bad"), path[512];
  ck_assert_int_eq(run_timings(dir, "echo 'CUDA error: no CUDA-capable device is detected' >&2; exit 3", 0), 3);
  ck_assert_int_eq(run_timings(dir, "", 1), 1);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert_msg(strstr(log, "the reference is wrong"), "no reason given:\n%s", log);
  snprintf(path, sizeof path, "%s/out/nvidia-fake-gpu-x.csv", dir);
  ck_assert_msg(access(path, F_OK) != 0, "a CSV was written from a wrong reference");
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* Runs a shell command with its output to DIR/log; returns the log (free it)
 * and the exit status in *rc. */
static char *run_logged(const char *dir, const char *command, int *rc) {
  char cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "%s > '%s/log' 2>&1", command, dir);
  *rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert(log != NULL);
  return log;
}

/* --plot on the CSV of a sweep, as on a machine without a GPU: the same suggestion
 * lines as the sweep printed, and the plot beside the CSV. */
START_TEST(test_timings_plot_from_csv) {
  ck_assert_int_eq(run_shell("make -s build/tools/timings > /dev/null"), 0);
  char *dir = make_temp_dir("timings-plot"), path[512], cmd[1024];
  int rc = run_timings(dir, "", 0);
  snprintf(path, sizeof path, "%s/log", dir);
  char *sweep_log = read_text(path);
  ck_assert_msg(rc == 0, "timings exited %d:\n%s", rc, sweep_log);
  const char *want = strstr(sweep_log, "  suggested perf thresholds");
  ck_assert_msg(want && strstr(want, "perf-fast") && strstr(want, "full_ratio = 1.15"), "no suggestions:\n%s", sweep_log);

  snprintf(path, sizeof path, "%s/out/nvidia-fake-gpu-x.png", dir);
  unlink(path); /* the GPU host had no gnuplot */
  snprintf(cmd, sizeof cmd, "build/tools/timings --plot '%s/out/nvidia-fake-gpu-x.csv' --conf '%s/grade.conf'", dir, dir);
  char *log = run_logged(dir, cmd, &rc);
  ck_assert_msg(rc == 0, "--plot exited %d:\n%s", rc, log);
  const char *got = strstr(log, "  suggested perf thresholds");
  ck_assert_msg(got && !strcmp(got, want), "--plot printed:\n%s\nthe sweep suggested:\n%s", log, want);
  if (run_shell("command -v gnuplot > /dev/null") == 0) {
    unsigned char sig[8] = {0};
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "no plot %s:\n%s", path, log);
    size_t got_bytes = fread(sig, 1, sizeof sig, f);
    fclose(f);
    ck_assert_msg(got_bytes == 8 && !memcmp(sig, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG:\n%s", path, log);
  } else
    ck_assert_msg(strstr(log, "plot skipped: gnuplot is not installed"), "no note:\n%s", log);
  free(log);

  /* Without --conf: the plot only. */
  snprintf(cmd, sizeof cmd, "build/tools/timings --plot '%s/out/nvidia-fake-gpu-x.csv'", dir);
  log = run_logged(dir, cmd, &rc);
  ck_assert_msg(rc == 0 && !strstr(log, "suggested"), "--plot without --conf exited %d:\n%s", rc, log);
  free(log);
  free(sweep_log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A bad CSV is one line naming the file and the line, and exit 2; each is one
 * change to a CSV that --plot takes. */
START_TEST(test_timings_plot_refuses_bad_csv) {
  ck_assert_int_eq(run_shell("make -s build/tools/timings > /dev/null"), 0);
#define HEADER "gpu,assignment,variant,case,n,runs,best_ms,median_ms,worst_ms,spread\n"
#define ROW1 "\"NVIDIA Fake GPU (x)\",01-fake,plain,n1k,1000,5,1,1.01,1.02,1.0200\n"
  static const struct {
    const char *name, *text; /* text NULL: no such file */
    int line;                /* 0: good */
    const char *why;
  } csvs[] = {
      {"good", HEADER ROW1 "\"NVIDIA Fake GPU (x)\",01-fake,plain,n1m,1000000,5,2,2,2,1.0000\n", 0, NULL},
      {"header", "gpu,assignment,variant,case,n,runs,best,median,worst,spread\n" ROW1, 1, "want the header"},
      {"short", HEADER ROW1 "\"NVIDIA Fake GPU (x)\",01-fake,plain,n1m,1000000,5,2,2,2\n", 3, "9 field(s), want 10"},
      {"nan", HEADER "\"NVIDIA Fake GPU (x)\",01-fake,plain,n1k,1000,5,fast,1.01,1.02,1.0200\n", 2, "best_ms 'fast'"},
      {"empty", HEADER, 2, "no rows"},
      {"missing", NULL, -1, "No such file"},
  };
#undef HEADER
#undef ROW1
  char *dir = make_temp_dir("timings-badcsv"), path[512], cmd[1024], where[600];
  for (size_t i = 0; i < sizeof csvs / sizeof csvs[0]; i++) {
    snprintf(path, sizeof path, "%s/%s.csv", dir, csvs[i].name);
    if (csvs[i].text) write_text(path, csvs[i].text, 0);
    snprintf(cmd, sizeof cmd, "build/tools/timings --plot '%s'", path);
    int rc;
    char *log = run_logged(dir, cmd, &rc);
    if (!csvs[i].line) {
      ck_assert_msg(rc == 0, "%s: exited %d:\n%s", csvs[i].name, rc, log);
    } else {
      if (csvs[i].line > 0) snprintf(where, sizeof where, "timings: %s:%d: ", path, csvs[i].line);
      else snprintf(where, sizeof where, "timings: cannot read %s: ", path);
      ck_assert_msg(rc == 2, "%s: exited %d, want 2:\n%s", csvs[i].name, rc, log);
      ck_assert_msg(text_is_one_line(log) && strstr(log, where) && strstr(log, csvs[i].why), "%s: want one line '%s...%s', got:\n%s",
                    csvs[i].name, where, csvs[i].why, log);
    }
    free(log);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

START_TEST(test_make_timings_without_gpu) {
  char *dir = make_temp_dir("timings-nogpu");
  int rc;
  char *log = run_logged(dir, "SCANLAB_NO_GPU=1 make -s timings A=01", &rc);
  ck_assert_int_ne(rc, 0);
  ck_assert_msg(strstr(log, "make timings: exit 3: no CUDA device"), "no no-GPU message:\n%s", log);
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The no-GPU reason (build/tools/gpuinfo, which the grader quotes in "No GPU mode: ..."): on a
 * machine without an NVIDIA driver (no libcuda.so.1 to load, as on the CPU build hosts) it says
 * "no NVIDIA driver", not the runtime's "driver version is insufficient"; with a driver it
 * never says so (a GPU host: its device, or the runtime's own error). */
START_TEST(test_gpuinfo_no_driver) {
  ck_assert_int_eq(run_shell("make -s build/tools/gpuinfo > /dev/null"), 0);
  char *dir = make_temp_dir("gpuinfo");
  void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  int rc;
  char *log = run_logged(dir, "build/tools/gpuinfo", &rc);
  if (!lib) {
    ck_assert_msg(rc == 1 && !strcmp(log, "no CUDA device (no NVIDIA driver: libcuda.so.1 is not installed)\n"),
                  "gpuinfo without a driver exited %d:\n%s", rc, log);
    free(log);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "build/grader/grade --results '%s/results' 01 2>&1 | sed -n 2p", dir);
    log = run_logged(dir, cmd, &rc);
    ck_assert_msg(strstr(log, "No GPU mode: no CUDA device (no NVIDIA driver: libcuda.so.1 is not installed)."),
                  "the grader's no-GPU line:\n%s", log);
  } else {
    dlclose(lib);
    ck_assert_msg(!strstr(log, "no NVIDIA driver") && !strstr(log, "libcuda"), "gpuinfo with a driver:\n%s", log);
  }
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* make bench and make lectures-run without a GPU: exit 3 with "needs a CUDA GPU (why)" before
 * anything is built (they built for minutes first). The compilers are stand-ins that leave a
 * mark, so any build step shows; no GPU is SCANLAB_NO_GPU, or an nvidia-smi that lists none. */
START_TEST(test_gpu_targets_refuse_before_building) {
  char *dir = make_temp_dir("need-gpu"), path[512], cmd[2048];
  static const char *const TOOLS[] = {"nvcc", "cc"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, TOOLS[i]);
    snprintf(cmd, sizeof cmd, "#!/bin/sh\necho \"$0 $*\" >> '%s/built'\nexit 1\n", dir);
    write_text(path, cmd, 1);
  }
  snprintf(path, sizeof path, "%s/bin/nvidia-smi", dir);
  write_text(path, "#!/bin/sh\necho 'No devices were found'\nexit 6\n", 1);
  static const struct {
    const char *env, *target, *why;
  } runs[] = {
      {"SCANLAB_NO_GPU=1", "bench A=01", "make bench: exit 3: needs a CUDA GPU (no-GPU mode asked for: SCANLAB_NO_GPU is set)"},
      {"PATH=\"$D/bin:$PATH\"", "bench A=04", "make bench: exit 3: needs a CUDA GPU (nvidia-smi lists no GPU)"},
      {"SCANLAB_NO_GPU=1", "lectures-run", "make lectures-run: exit 3: needs a CUDA GPU (no-GPU mode asked for: SCANLAB_NO_GPU is set)"},
      {"PATH=\"$D/bin:$PATH\"", "lectures-run", "make lectures-run: exit 3: needs a CUDA GPU (nvidia-smi lists no GPU)"},
  };
  for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
    snprintf(cmd, sizeof cmd, "D='%s'; %s make -s %s NVCC=\"$D/nvcc\" CC=\"$D/cc\" B=\"$D/b\"", dir, runs[k].env, runs[k].target);
    int rc;
    char *log = run_logged(dir, cmd, &rc);
    ck_assert_msg(rc != 0 && strstr(log, runs[k].why), "%s make %s exited %d without '%s':\n%s", runs[k].env, runs[k].target, rc,
                  runs[k].why, log);
    snprintf(path, sizeof path, "%s/built", dir);
    char *built = read_text(path);
    ck_assert_msg(!built, "%s make %s built before refusing:\n%s", runs[k].env, runs[k].target, built);
    free(log);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* ------------------------------------------------------------ make gradescope */

START_TEST(test_gradescope) {
  static assignment_conf a;
  first_assignment(&a);
  char *dir = make_temp_dir("gradescope"), cmd[4096], path[2048];
  snprintf(cmd, sizeof cmd,
           "make -s gradescope > '%s/make.log' 2>&1 && mkdir -p '%s/autograder/source' '%s/autograder/submission/extra' && "
           "unzip -q dist/gradescope-autograder.zip -d '%s/autograder/source' && "
           "cp solutions/%s/%s '%s/autograder/submission/' && echo hi > '%s/autograder/submission/extra/notes.txt'",
           dir, dir, dir, dir, a.name, a.student, dir, dir);
  ck_assert_msg(run_shell(cmd) == 0, "make gradescope or unzip failed (%s/make.log)", dir);
  snprintf(cmd, sizeof cmd, "cd '%s/autograder/source' && test -x run_autograder && test -f setup.sh && test ! -e solutions", dir);
  ck_assert_msg(run_shell(cmd) == 0, "the zip has no run_autograder or setup.sh at its root, or holds solutions/");
  /* Only the first assignment's file is submitted (its solution): that one is graded, the others
   * score 0 saying why. */
  snprintf(cmd, sizeof cmd,
           "cd '%s/autograder' && SCANLAB_NO_GPU=1 ARCH=sm_75 SCANLAB_SOURCE=$PWD/source SCANLAB_SUBMISSION=$PWD/submission "
           "SCANLAB_RESULTS=$PWD/results/results.json source/run_autograder > stdout 2>&1",
           dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/autograder/stdout", dir);
  char *out = read_text(path);
  ck_assert_msg(strstr(out, "ignored: extra/notes.txt"), "the extra file is not reported:\n%s", out);
  snprintf(path, sizeof path, "%s/autograder/results/results.json", dir);
  json_t *j = load_json(path), *t;
  size_t i, n_first = 0, n_missing = 0;
  double ptx_first = 0;
  char prefix[8];
  snprintf(prefix, sizeof prefix, "%.2s-", a.name);
  json_array_foreach(json_object_get(j, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    const char *output = json_string_value(json_object_get(t, "output"));
    const char *kind = json_string_value(json_array_get(json_object_get(t, "tags"), 0));
    double score = json_number_value(json_object_get(t, "score")), max = json_number_value(json_object_get(t, "max_score"));
    ck_assert_msg(name && output && kind, "test %zu lacks name, output or tags", i);
    if (!strncmp(name, prefix, 3)) {
      n_first++;
      if (!strcmp(kind, "ptx")) {
        ck_assert_msg(score == max, "%s: the solution scored %g of %g", name, score, max);
        ptx_first += score;
      }
    } else {
      ck_assert_msg(score == 0, "%s: a missing file scored %g", name, score);
      if (!strcmp(kind, "ptx") || !strcmp(kind, "model"))
        ck_assert_msg(strstr(output, "is not in your submission"), "%s: no reason:\n%s", name, output), n_missing++;
    }
  }
  ck_assert_msg(n_first > 0 && ptx_first > 0, "%s was not graded:\n%s", a.name, out);
  ck_assert_msg(n_missing > 0, "no check of another assignment says the file is missing");
  json_decref(j);
  free(out);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* ------------------------------------------------------------ make grade-all */

/* One row of an RFC 4180 CSV file (a line: grade-all's fields hold no line break): its
 * fields into f[0..max-1] (each cap bytes, quotes undone). Returns the count, or -1 when
 * the row is not RFC 4180 (a quote inside an unquoted field, text after a closing quote). */
enum { CSV_FIELDS = 16, CSV_FIELD_CAP = 512 };
static int csv_row(const char *line, char f[][CSV_FIELD_CAP], int max) {
  int n = 0;
  const char *p = line;
  for (;;) {
    if (n == max) return -1;
    size_t k = 0;
    if (*p == '"') {
      for (p++;; p++) {
        if (!*p) return -1;
        if (*p == '"' && p[1] != '"') break;
        if (*p == '"') p++;
        if (k + 1 < CSV_FIELD_CAP) f[n][k++] = *p;
      }
      p++;
    } else {
      for (; *p && *p != ',' && *p != '\n' && *p != '\r'; p++) {
        if (*p == '"') return -1;
        if (k + 1 < CSV_FIELD_CAP) f[n][k++] = *p;
      }
    }
    f[n++][k] = 0;
    if (*p == ',') p++;
    else if (!*p || *p == '\n' || *p == '\r') return n;
    else return -1;
  }
}

/* The gradebook COURSE/FILE as rows of fields: each row's fields checked by fn. Returns the rows after the header. */
typedef void (*book_row_fn)(char f[][CSV_FIELD_CAP], int n, const char *line, void *ctx);
static int read_book(const char *path, const char *header, book_row_fn fn, void *ctx) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "no %s", path);
  char line[2048], fields[CSV_FIELDS][CSV_FIELD_CAP];
  ck_assert(fgets(line, sizeof line, f) != NULL);
  ck_assert_str_eq(line, header);
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    int n = csv_row(line, fields, CSV_FIELDS);
    ck_assert_msg(n == 6, "%s: not a row of 6 RFC 4180 fields: %s", path, line);
    fn(fields, n, line, ctx);
    rows++;
  }
  fclose(f);
  return rows;
}

/* The hostile run's gradebook (tests/grade-all-hostile.sh): every row 0 points, and the
 * failures field of the student whose symbolic link is named 'a,"b".cu' read back whole. */
typedef struct hostile_check {
  const char *assignment; /* the one graded (first_assignment) */
  int seen;               /* rows of the student 'rows' */
} hostile_check;
static void hostile_row(char f[][CSV_FIELD_CAP], int n, const char *line, void *ctx) {
  (void)n;
  hostile_check *h = ctx;
  ck_assert_msg(!strcmp(f[1], "0.00") && !strcmp(f[2], "0.00"), "a hostile submission scored: %s", line);
  if (!strcmp(f[0], "rows")) {
    char want[CSV_FIELD_CAP];
    snprintf(want, sizeof want, "rejected: a symbolic link in the submission: %s/a,\"b\".cu -> ../../x", h->assignment);
    ck_assert_str_eq(f[5], want);
    h->seen++;
  }
}

/* A row of the three students' gradebook: total the sum, seconds a count, the failures as each student earned. */
typedef struct book_check {
  double no_gpu;          /* what the assignment can earn without a GPU */
  const char *assignment; /* the one graded (first_assignment) */
} book_check;
static void check_book_row(char f[][CSV_FIELD_CAP], int n, const char *line, void *ctx) {
  (void)n;
  const book_check *want = ctx;
  const char *student = f[0], *failures = f[5];
  double score = atof(f[1]), total = atof(f[2]);
  int seconds = atoi(f[4]);
  char bob[128];
  snprintf(bob, sizeof bob, "%s: does not compile", want->assignment);
  ck_assert_msg(f[4][0] >= '0' && f[4][0] <= '9' && seconds >= 0 && seconds < 3600, "%s: no seconds column: %s", student, line);
  ck_assert_msg(score == total, "%s: total %g is not the sum %g", student, total, score);
  if (!strcmp(student, "alice"))
    ck_assert_msg(score == want->no_gpu && !failures[0], "alice (the solution): %g points, want %g; failures '%s'", score, want->no_gpu,
                  failures);
  else if (!strcmp(student, "bob"))
    ck_assert_msg(score == 0 && strstr(failures, bob), "bob: no '%s': %s", bob, line);
  else if (!strcmp(student, "carol"))
    ck_assert_msg(score == 0 && strstr(failures, "timed out after 40 s"), "carol: %s", line);
  else
    ck_abort_msg("unexpected row: %s", line);
}

/* Three students on a copy of the course: one good, one that does not compile, one
 * whose build hangs (its file includes a FIFO that nobody writes, so the compiler
 * blocks opening it), plus a folder whose name is not a safe path. Each hands in the
 * first assignment (first_assignment). */
START_TEST(test_grade_all) {
  static assignment_conf conf;
  first_assignment(&conf);
  const char *A = conf.name, *F = conf.student;
  char *dir = copy_course("grade-all", "solutions tests"), cmd[4096], path[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && "
           "mkdir -p subs/alice/%s subs/bob/%s subs/carol/%s 'subs/bad name' && "
           "cp solutions/%s/%s subs/alice/%s/ && "
           "printf 'this is not C;\\n' > subs/bob/%s/%s && mkfifo hang.fifo && "
           "printf '#include \"%s/hang.fifo\"\\n' > subs/carol/%s/%s",
           dir, A, A, A, A, F, A, A, F, dir, A, F);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && SCANLAB_NO_GPU=1 ARCH=sm_75 make grade-all SUBMISSIONS=subs/ A=%.2s STUDENT_TIMEOUT=40 > log 2>&1", dir, A);
  int rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert_msg(rc != 0 && strstr(log, "rejected bad\\ name"), "the unsafe folder name was not rejected (exit %d):\n%s", rc, log);
  ck_assert_msg(strstr(log, "[1/3] alice ...") && strstr(log, "[3/3] carol ..."), "no progress lines:\n%s", log);

  /* What the assignment can earn without a GPU, from its grade.conf. */
  double no_gpu = 0;
  for (int i = 0; i < conf.n_checks; i++) no_gpu += conf_kind_needs_gpu(conf.checks[i].kind) ? 0 : conf.checks[i].points;

  snprintf(cmd, sizeof cmd, "cd '%s' && cp grade-results/all-*/gradebook.csv book.csv", dir);
  ck_assert_msg(run_shell(cmd) == 0, "no gradebook.csv:\n%s", log);
  snprintf(path, sizeof path, "%s/book.csv", dir);
  book_check want = {no_gpu, A};
  char header[256];
  snprintf(header, sizeof header, "student,%s,total,max,seconds,failures\n", A);
  int rows = read_book(path, header, check_book_row, &want);
  ck_assert_msg(rows == 3, "%d rows, want 3:\n%s", rows, log);
  /* Each student keeps a results folder; the compile error is kept for bob. */
  snprintf(cmd, sizeof cmd,
           "cd '%s'/grade-results/all-*/results && test -f alice/results.json && grep -q error bob/%s.build.log && test -f carol/make.log",
           dir, A);
  ck_assert_msg(run_shell(cmd) == 0, "a student's results folder is incomplete");
  snprintf(path, sizeof path, "%s/grade-results/all-*/results/alice/results.json", dir);
  glob_t g;
  ck_assert_int_eq(glob(path, 0, NULL, &g), 0);
  json_decref(load_json(g.gl_pathv[0]));
  globfree(&g);
  free(log);

  /* The backends on the same copy (its tools built): one after another, GPUS=0,1 and
   * a real single-node Slurm with a cancelled task and a resumed run, each giving the
   * same gradebook but for the seconds (tests/grade-all-backends.sh). */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && mkdir -p subs2/alice/%s subs2/bob/%s subs2/dave/%s && "
           "cp solutions/%s/%s subs2/alice/%s/ && "
           "printf 'this is not C;\\n' > subs2/bob/%s/%s && "
           "cp starter/%s/%s subs2/dave/%s/ && "
           "bash tests/grade-all-backends.sh . > backends.log 2>&1",
           dir, A, A, A, A, F, A, A, F, A, F, A);
  rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/backends.log", dir);
  log = read_text(path);
  ck_assert_msg(rc == 0 && log && !strstr(log, "FAIL"), "make grade-all's backends (exit %d):\n%s", rc, log ? log : "(no log)");
  printf("%s", log); /* the PASS lines, in make test's output */
  free(log);

  /* Hostile submissions, bad settings, a damaged roster, Ctrl-C (tests/grade-all-hostile.sh),
   * and the hostile run's gradebook parsed back as RFC 4180. */
  snprintf(cmd, sizeof cmd, "bash tests/grade-all-hostile.sh '%s' > '%s/hostile.txt' 2>&1", dir, dir);
  rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/hostile.txt", dir);
  log = read_text(path);
  ck_assert_msg(rc == 0 && log && !strstr(log, "FAIL"), "make grade-all with hostile submissions (exit %d):\n%s", rc, log ? log : "(no log)");
  printf("%s", log);
  free(log);
  hostile_check hostile = {A, 0};
  snprintf(path, sizeof path, "%s/hostile-book.csv", dir);
  ck_assert_int_eq(read_book(path, header, hostile_row, &hostile), 6);
  ck_assert_msg(hostile.seen == 1, "no row for the student 'rows' in %s", path);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *instructor_suite(void) {
  Suite *s = suite_create("instructor");
  TCase *t = tcase_create("tools");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_timings_csv_and_thresholds);
  tcase_add_test(t, test_timings_refuses_bad_reference);
  tcase_add_test(t, test_timings_plot_from_csv);
  tcase_add_test(t, test_timings_plot_refuses_bad_csv);
  tcase_add_test(t, test_make_timings_without_gpu);
  tcase_add_test(t, test_gpuinfo_no_driver);
  tcase_add_test(t, test_gpu_targets_refuse_before_building);
  tcase_add_test(t, test_gradescope);
  TCase *ga = tcase_create("grade-all");
  tcase_set_timeout(ga, 1800); /* the backends (a Slurm cluster) and the hostile cases (tests/grade-all-hostile.sh) */
  tcase_add_test(ga, test_grade_all);
  suite_add_tcase(s, ga);
  suite_add_tcase(s, t);
  return s;
}
