/* test_repo.c: the repository itself: every grade.conf loads, every handout's
 * grading table equals its grade.conf, every starter fails and every solution
 * passes the checks that need no GPU (ptx, model), and the real runner rejects
 * bad arguments (each assignment's own checks are in assignments/NN/tests/). The teaching content
 * (quotes, links, stated points, rubrics) is test_teaching.c's. Run from the
 * repo root after `make test-builds`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf.h"
#include "course.h"
#include "ptx.h"
#include "tests.h"

#define MAX_A 16
static char names[MAX_A][64];
static int n_names;

static void list_assignments(void) {
  if (n_names) return;
  DIR *d = opendir("assignments");
  ck_assert_msg(d != NULL, "run the tests from the repository root");
  struct dirent *e;
  while ((e = readdir(d)) && n_names < MAX_A) {
    char path[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    fclose(f);
    snprintf(names[n_names++], 64, "%s", e->d_name);
  }
  closedir(d);
  ck_assert_int_gt(n_names, 0);
}

START_TEST(test_every_conf_loads) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    static assignment_conf a;
    char path[512], err[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[i]);
    ck_assert_msg(conf_load(path, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(a.name, names[i]);
    ck_assert_msg(conf_total_points(&a) == 100, "%s totals %g points, not 100", path, conf_total_points(&a));
  }
}
END_TEST

/* Parses "| `name` | kind | points | title |" rows of the handout's grading
 * table and compares them, in order, with grade.conf. */
START_TEST(test_handout_table_matches_conf) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    static assignment_conf a;
    char path[512], err[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[i]);
    ck_assert_msg(conf_load(path, &a, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *text = read_text(path);
    ck_assert_msg(text != NULL, "%s is missing", path);
    char *table = strstr(text, "## Grading");
    ck_assert_msg(table != NULL, "%s has no '## Grading' section", path);
    int row = 0, have_total = 0;
    double total = 0;
    char *save = NULL;
    for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      if (!strncmp(line, "| **total**", 11)) {
        ck_assert_msg(sscanf(line, "| **total** | | **%lf** |", &total) == 1, "%s: bad total row: %s", path, line);
        have_total = 1;
        break;
      }
      if (strncmp(line, "| `", 3)) continue;
      char name[64], kind[32], title[256];
      double points;
      int got = sscanf(line, "| `%63[^`]` | %31[^ |] | %lf | %255[^|]|", name, kind, &points, title);
      ck_assert_msg(got == 4, "%s: cannot read table row: %s", path, line);
      size_t tl = strlen(title);
      while (tl && title[tl - 1] == ' ') title[--tl] = 0;
      ck_assert_msg(row < a.n_checks, "%s: row '%s' has no section in grade.conf", path, name);
      const check_conf *c = &a.checks[row++];
      ck_assert_msg(!strcmp(name, c->name), "%s: row %d is '%s', grade.conf has [%s]", path, row, name, c->name);
      ck_assert_msg(!strcmp(kind, conf_kind_name(c->kind)), "%s: '%s' kind %s, grade.conf says %s", path, name, kind, conf_kind_name(c->kind));
      ck_assert_msg(points == c->points, "%s: '%s' %g points, grade.conf says %g", path, name, points, c->points);
      ck_assert_msg(!strcmp(title, c->title), "%s: '%s' title '%s', grade.conf says '%s'", path, name, title, c->title);
    }
    ck_assert_msg(row == a.n_checks, "%s: %d rows, grade.conf has %d checks", path, row, a.n_checks);
    ck_assert_msg(have_total && total == conf_total_points(&a), "%s: total row %g, grade.conf totals %g", path, total, conf_total_points(&a));
    free(text);
  }
}
END_TEST

/* Lecture 01 says what the fences of its litmus test compile to: __threadfence()
 * is membar.gl (fence.sc.gpu, its synonym, in other toolkits), and the
 * release store and acquire load of cuda::atomic_ref are
 * st.release.gpu and ld.acquire.gpu. Checked on the example's PTX. */
START_TEST(test_litmus_ptx) {
  static const struct {
    const char *pattern;
    long want;
  } rows[] = {
      {"^[[:space:]]*(membar\\.gl|fence\\.sc\\.gpu);", 2}, /* one __threadfence() on each side */
      {"^[[:space:]]*st\\.release\\.gpu", 1},
      {"^[[:space:]]*ld\\.acquire\\.gpu", 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char err[256];
    long n = ptx_count("build/lectures/mp_litmus.ptx", "litmus", rows[i].pattern, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(n == rows[i].want, "mp_litmus PTX: %ld lines match %s, want %ld", n, rows[i].pattern, rows[i].want);
  }
}
END_TEST

/* The grader itself, in no-GPU mode, with --expect: the starter fails every
 * ptx/model check its grade.conf says it fails, the solution passes them all. */
static void grade_expect(const char *src) {
  char *dir = make_temp_dir("repo-grade");
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "build/grader/grade --no-gpu --expect --src %s --results %s > %s/log 2>&1", src, dir, dir);
  int rc = run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  char *log = read_text(cmd);
  ck_assert_msg(rc == 0, "grade --expect --src %s exited %d:\n%s", src, rc, log ? log : "");
  ck_assert(strstr(log, "EXPECT OK") != NULL);
  snprintf(cmd, sizeof cmd, "%s/latest/results.json", dir);
  json_t *j = load_json(cmd);
  ck_assert(json_array_size(json_object_get(j, "tests")) > 0);
  json_decref(j);
  free(log);
  remove_dir(dir);
  free(dir);
}

START_TEST(test_grade_starter_fails_where_expected) { grade_expect("starter"); }
END_TEST
START_TEST(test_grade_solutions_pass) { grade_expect("solutions"); }
END_TEST

START_TEST(test_runner_cli_without_gpu) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "build/starter/%s/runner --list > /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 0, "%s failed", cmd);
    snprintf(cmd, sizeof cmd, "build/starter/%s/runner --frobnicate 2> /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 2, "%s: a bad option must exit 2", names[i]);
    snprintf(cmd, sizeof cmd, "build/starter/%s/runner --case no-such-case 2> /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 2, "%s: an unknown case must exit 2", names[i]);
  }
}
END_TEST

/* Names a student might well give a helper or a constant. The runners of 01-03
 * include the student's file, so their own names carry the assignment's prefix
 * (ws_, hs_, bl_; runner.h's runner_); this builds every runner with the solution's file plus these definitions
 * (as the student's own), which must not clash with anything course-owned. */
static const char STUDENT_NAMES[] =
    "\n// test_student_names_do_not_clash: names a student may use\n"
    "static int run, setup, teardown, state, verify, emit, list, bench, poison, check, compare, sweeps;\n"
    "static int measure, outcome, conflict, now_ms, print_rows, case_banks, simulate_one, access_word;\n"
    "static int KERNELS, VARIANTS, CASES, segment_length, scan_segments, round_up, threads_of, layout_usable;\n"
    "static int scan_one, scan_groups, probe, scan_segment, warp_inclusive_scan, warp_total, buf, scratch;\n"
    "#define BLOCK 3\n#define ITEMS 3\n#define MAX_N 3\n#define FULL_MASK 3\n#define SHFL_ITEMS 3\n"
    "#define MAX_WARPS 3\n#define N_VARIANTS 3\n#define TT_ITEMS 3\n#define TT_THREADS 3\n#define CUDA_CHECK 3\n";

START_TEST(test_student_names_do_not_clash) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    char *dir = make_temp_dir("names"), cmd[2048];
    snprintf(cmd, sizeof cmd, "cp solutions/%s/* '%s'/", names[i], dir);
    ck_assert_msg(run_shell(cmd) == 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "for f in '%s'/*.cu; do printf '%%s' '%s' >> \"$f\"; done", dir, STUDENT_NAMES);
    ck_assert_msg(run_shell(cmd) == 0, "%s", cmd);
    /* The runner as the build makes it: runner/runner.cu with the student's object, or
     * (link = inline) with the student's file included last (whose PTX the ptx checks read). */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && N=\"${NVCC:-/usr/local/cuda/bin/nvcc}\"; R=\"$OLDPWD\"; F=\"-arch=sm_75 -std=c++17 -I$R/grader/protocol "
             "-I$R/grader/runner -I$R/assignments/%s -I.\"; "
             "$N $F -c *.cu -o s.o > log 2>&1 && $N $F -c \"$R/assignments/%s/runner/runner.cu\" -o r.o >> log 2>&1 && "
             "{ grep -q '^#include \"'\"$(ls *.cu | head -1)\"'\"' \"$R/assignments/%s/runner/runner.cu\" && "
             "$N -arch=sm_75 r.o \"$R/build/runner/librunner.a\" -lpthread -o h >> log 2>&1 || "
             "$N -arch=sm_75 r.o s.o \"$R/build/runner/librunner.a\" -lpthread -o h >> log 2>&1; } "
             "|| { cat log; exit 1; }",
             dir, names[i], names[i], names[i]);
    ck_assert_msg(run_shell(cmd) == 0, "%s: a student's helper names clash with the runner (output above)", names[i]);
    snprintf(cmd, sizeof cmd,
             "m=$(sed -n 's/^model *= *//p' assignments/%s/grade.conf); test -z \"$m\" || \"${NVCC:-/usr/local/cuda/bin/nvcc}\" -arch=sm_75 "
             "-std=c++17 -Igrader/protocol -Igrader/lib -Iassignments/%s -I'%s' -c \"assignments/%s/$m\" -o '%s'/m.o > '%s'/log 2>&1 || "
             "{ cat '%s'/log; exit 1; }",
             names[i], names[i], dir, names[i], dir, dir, dir);
    ck_assert_msg(run_shell(cmd) == 0, "%s: a student's helper names clash with the CPU model (output above)", names[i]);
    remove_dir(dir);
    free(dir);
  }
}
END_TEST

/* Two `make grade` at once in one checkout (a student in two terminals): both
 * build, both grade, neither sees a half-written binary, and each keeps its
 * own complete results. Runs on a copy of the course, one assignment only
 * (first_assignment). */
START_TEST(test_make_grade_twice_at_once) {
  static assignment_conf a;
  first_assignment(&a);
  char *dir = copy_course("twice", ""), cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && { SCANLAB_NO_GPU=1 make grade A=%.2s ARCH=sm_75 > a.log 2>&1 & a=$!; "
           "SCANLAB_NO_GPU=1 make grade A=%.2s ARCH=sm_75 > b.log 2>&1 & b=$!; wait $a $b; }",
           dir, a.name, a.name);
  run_shell(cmd);
  for (const char *side = "a"; side; side = side[0] == 'a' ? "b" : NULL) {
    snprintf(cmd, sizeof cmd, "%s/%s.log", dir, side);
    char *log = read_text(cmd);
    ck_assert_msg(log != NULL, "no log of make grade (%s)", side);
    const char *tail = strlen(log) > 600 ? log + strlen(log) - 600 : log; /* Check's messages are short */
    ck_assert_msg(strstr(log, "make grade: exit 3: no CUDA device"), "make grade (%s) did not end in no-GPU mode:\n%s",
                  side, tail);
    ck_assert_msg(!strstr(log, "does not compile") && !strstr(log, "is not executable"),
                  "make grade (%s) met a broken build:\n%s", side, tail);
    free(log);
  }
  /* two result folders, each with a complete results.json: every check of the assignment */
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && test $(ls | grep -v '^latest$' | wc -l) -eq 2", dir);
  ck_assert_msg(run_shell(cmd) == 0, "two runs did not leave two result folders");
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && ls | grep -v '^latest$' > ../dirs", dir);
  run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/dirs", dir);
  char *dirs = read_text(cmd), *save = NULL;
  for (char *d = strtok_r(dirs, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
    snprintf(cmd, sizeof cmd, "%s/grade-results/%s/results.json", dir, d);
    json_t *j = load_json(cmd);
    ck_assert_msg(json_array_size(json_object_get(j, "tests")) == (size_t)a.n_checks, "%s: %zu tests, want %d", cmd,
                  json_array_size(json_object_get(j, "tests")), a.n_checks);
    json_decref(j);
  }
  free(dirs);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* `make help` lists every target with one line each. */
START_TEST(test_make_help_lists_targets) {
  static const char *const TARGETS[] = {"all", "grade", "test", "test-gpu", "test-gpu-build", "reference",
                                        "bench", "ptx", "clean", "help", "timings", "handout", "gradescope",
                                        "grade-all"};
  char *dir = make_temp_dir("help"), cmd[1024];
  snprintf(cmd, sizeof cmd, "make -s help > '%s/help' 2>&1", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  for (size_t i = 0; i < sizeof TARGETS / sizeof *TARGETS; i++) {
    snprintf(cmd, sizeof cmd, "test $(grep -cE '^  %s +[a-z]' '%s/help') -eq 1", TARGETS[i], dir);
    ck_assert_msg(run_shell(cmd) == 0, "make help has no one-line entry for '%s'", TARGETS[i]);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The whole path of a student file that does not compile: `make grade` goes
 * on, the grader scores that assignment 0 with the compiler's message, and
 * the other assignments are still graded. Runs on a copy of the course with
 * the starters built as make test-builds built them (build/starter, the GPU
 * flags of build/.gencode): the others are reused, as for a student who
 * graded before breaking one (first_assignment), and only that one is compiled. */
START_TEST(test_make_grade_compile_error) {
  list_assignments();
  static assignment_conf a;
  first_assignment(&a);
  char *dir = copy_course("compile-error", "");
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cp -a build/starter '%s/build/'", dir);
  ck_assert_msg(run_shell(cmd) == 0, "%s (make test-builds builds the starters)", cmd);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && printf '\nthis is not C;\n' >> starter/%s/%s && "
           "SCANLAB_NO_GPU=1 make grade GENCODE=\"$(cat build/.gencode)\" > log 2>&1; echo $? > rc",
           dir, a.name, a.student);
  run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  char *log = read_text(cmd);
  ck_assert_msg(log && strstr(log, "error"), "no compiler message in the make output:\n%s", log ? log : "");
  snprintf(cmd, sizeof cmd, "%s/grade-results/latest/results.tsv", dir);
  char *tsv = read_text(cmd);
  ck_assert_msg(tsv != NULL, "no results.tsv; make grade said:\n%s", log);
  /* Every check of the broken assignment fails, and each that needs no GPU says why. */
  snprintf(cmd, sizeof cmd, "test -z \"$(awk -F'\\t' '$1 == \"%s\" && $4 != \"fail\" && $4 != \"ungraded\"' '%s/grade-results/latest/results.tsv')\"",
           a.name, dir);
  ck_assert_msg(run_shell(cmd) == 0, "a check of %s did not fail:\n%s", a.name, tsv);
  int no_gpu = 0;
  for (int i = 0; i < a.n_checks; i++) {
    if (conf_kind_needs_gpu(a.checks[i].kind)) continue;
    no_gpu++;
    snprintf(cmd, sizeof cmd, "grep -q '%s .*does not compile: .*%s' '%s/log'", a.checks[i].name, a.student, dir);
    ck_assert_msg(run_shell(cmd) == 0, "%s: no 'does not compile: <file>' reason:\n%s", a.checks[i].name, log);
  }
  ck_assert_msg(no_gpu > 0, "%s has no check that needs no GPU: this test sees no reason", a.name);
  /* The other assignments were graded, on their own merits. */
  for (int i = 0; i < n_names; i++) {
    if (!strcmp(names[i], a.name)) continue;
    snprintf(cmd, sizeof cmd, "grep -q '^%s\t' '%s/grade-results/latest/results.tsv'", names[i], dir);
    ck_assert_msg(run_shell(cmd) == 0, "%s was not graded:\n%s", names[i], tsv);
    snprintf(cmd, sizeof cmd, "grep '^%s\t' '%s/grade-results/latest/results.tsv' | grep -q 'does not compile'", names[i], dir);
    ck_assert_msg(run_shell(cmd) != 0, "%s was marked 'does not compile' too", names[i]);
  }
  free(log);
  free(tsv);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* Issue 33 item 6: a round of development is named by its commit and date,
 * never by a number ("the round of f11a0dd..8e043a9, 2026-11-26"). Fails when
 * any tracked file matches the pattern of `git grep -nE` below, which is put
 * together from two strings so that this file does not match it. Outside a git
 * checkout, the tree is searched as git would list it (--no-index). */
START_TEST(test_no_numbered_rounds) {
  char pattern[64], cmd[512];
  snprintf(pattern, sizeof pattern, "%s%s", "[Ss]essi", "ons? [0-9]");
  snprintf(cmd, sizeof cmd,
           "if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then git grep -nIE '%s'; "
           "else git grep --no-index --exclude-standard -nIE '%s'; fi 2>&1",
           pattern, pattern);
  FILE *p = popen(cmd, "r");
  ck_assert_msg(p != NULL, "cannot run: %s", cmd);
  char found[4096] = "";
  size_t used = 0;
  int lines = 0;
  char line[1024];
  while (fgets(line, sizeof line, p)) {
    lines++;
    size_t len = strlen(line);
    if (used + len < sizeof found) {
      memcpy(found + used, line, len + 1);
      used += len;
    }
  }
  int status = pclose(p);
  ck_assert_msg(lines == 0 && status != 0 && WIFEXITED(status) && WEXITSTATUS(status) == 1,
                "%d line(s) number a round of development instead of naming its commit and date "
                "(git grep exit %d):\n%s",
                lines, WIFEXITED(status) ? WEXITSTATUS(status) : -1, found);
}
END_TEST

Suite *repo_suite(void) {
  Suite *s = suite_create("repo");
  TCase *t = tcase_create("assignments");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_every_conf_loads);
  tcase_add_test(t, test_handout_table_matches_conf);
  tcase_add_test(t, test_litmus_ptx);
  tcase_add_test(t, test_grade_starter_fails_where_expected);
  tcase_add_test(t, test_grade_solutions_pass);
  tcase_add_test(t, test_runner_cli_without_gpu);
  tcase_add_test(t, test_student_names_do_not_clash);
  tcase_add_test(t, test_make_grade_compile_error);
  tcase_add_test(t, test_make_help_lists_targets);
  tcase_add_test(t, test_make_grade_twice_at_once);
  suite_add_tcase(s, t);
  TCase *text = tcase_create("text");
  tcase_add_test(text, test_no_numbered_rounds);
  suite_add_tcase(s, text);
  return s;
}
