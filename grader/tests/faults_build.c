/* faults_build.c: the student's build, done by the grader (build.h), on the
 * fault suite's fake course (faults.h): a fake nvcc and a fake inspection stand
 * in for the real ones, so every outcome is reached in milliseconds. Each fault
 * follows a good build, so that it also shows that nothing of the earlier build
 * is graded; each is graded with and without a GPU, and must read the same in
 * results.json and report.md. (grader/tests/build-hostile.sh does the same
 * with the real nvcc on a copy of the course.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faults.h"
#include "tests.h"

static const struct {
  const char *name, *setup, *reason;
} BUILD_FAULTS[] = {
    {"the student's file deleted", "rm starter/99-fake/scan.cu", "missing file scan.cu: starter/99-fake has no scan.cu, the file the handout names"},
    {"the student's file renamed", "mv starter/99-fake/scan.cu starter/99-fake/my_scan.cu", "missing file scan.cu: starter/99-fake has no scan.cu"},
    {"no folder at all", "rm -r starter/99-fake", "missing file scan.cu: there is no folder starter/99-fake"},
    {"does not compile", "echo FAKE_COMPILE_ERROR >> starter/99-fake/scan.cu",
     "does not compile: starter/99-fake/scan.cu(12): error: identifier \"tid\" is undefined"},
    {"does not link", "echo FAKE_LINK_ERROR >> starter/99-fake/scan.cu", "does not link: scan.cu:(.text+0x1): undefined reference to `course_helper'"},
    {"the compiler runs out of memory", "echo FAKE_OOM >> starter/99-fake/scan.cu", "out of memory: nvcc (exit 1): nvcc error   : 'cicc' died due to signal 9"},
    {"refused by the inspection", "echo FAKE_USES_CUB >> starter/99-fake/scan.cu", "refused: scan.cu uses CUB (it includes cub/device/device_scan.cuh)"},
    {"a file name with a space", "echo notes > 'starter/99-fake/notes 1.txt'",
     "refused: starter/99-fake/notes 1.txt: a file name may hold only letters, digits, '.', '_' and '-' (rename or remove it)"},
    {"a name outside the set", "echo x > 'starter/99-fake/0\xc3\xa9.cu'", "refused: starter/99-fake/0\\xc3\\xa9.cu: a file name may hold only"},
    {"names that are make and shell code", "touch 'starter/99-fake/$(shell id >x).txt' 'starter/99-fake/`id>x`.cu'",
     "refused: starter/99-fake/$(shell id >x).txt: a file name may hold only"},
    {"a symbolic link in the folder", "ln -s ../../assignments/99-fake/grade.conf starter/99-fake/notes.txt",
     "refused: starter/99-fake/notes.txt is a symbolic link: submit the file itself"},
    {"the student's file a symbolic link", "mv starter/99-fake/scan.cu mine.cu && ln -s ../../mine.cu starter/99-fake/scan.cu",
     "refused: starter/99-fake/scan.cu is a symbolic link"},
    {"the folder a symbolic link", "mv starter/99-fake real-99 && ln -s ../real-99 starter/99-fake", "refused: starter/99-fake is a symbolic link"},
    {"a folder in the folder", "mkdir starter/99-fake/more", "refused: starter/99-fake/more is not a regular file (a folder)"},
};
#define N_BUILD_FAULTS (int)(sizeof BUILD_FAULTS / sizeof *BUILD_FAULTS)

static void shell_in(const char *root, const char *what) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s", root, what);
  ck_assert_msg(run_shell(cmd) == 0, "failed: %s", what);
}

static int missing(const char *root, const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  return access(path, F_OK) != 0;
}

/* Fault _i / 2, graded with a GPU (even _i) or without. */
START_TEST(test_build_fault) {
  int gpu = _i % 2 == 0;
  const char *name = BUILD_FAULTS[_i / 2].name, *reason = BUILD_FAULTS[_i / 2].reason;
  char what[200], path[600];
  snprintf(what, sizeof what, "%s, %s", name, gpu ? "GPU" : "no GPU");
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0); /* a good build first */
  ck_assert(!missing(root, "build/starter/99-fake/runner"));
  shell_in(root, BUILD_FAULTS[_i / 2].setup);
  ck_assert_int_eq(grade(root, gpu ? NULL : "export SCANLAB_NO_GPU=1;", NULL), gpu ? 0 : 3);
  json_t *j = latest(root);
  for (int i = 0; i < N_CHECKS; i++) {
    expect(j, "99-fake", CHECKS[i], "fail", reason, what); /* not "ungraded: no GPU": the build decided */
    const char *out = json_string_value(json_object_get(find_test(j, "99-fake", CHECKS[i]), "output"));
    ck_assert_msg(out && strstr(out, reason), "%s: 99-fake/%s's output lacks '%s':\n%s", what, CHECKS[i], reason, out);
  }
  if (gpu) {
    bystander_graded(j, what);
  } else {
    expect(j, "98-other", "correct", "ungraded", "ungraded: no GPU", what);
    expect(j, "98-other", "ptx", "pass", "1 matching PTX lines", what);
  }
  json_decref(j);
  /* nothing of the good build is left to grade */
  ck_assert_msg(missing(root, "build/starter/99-fake/runner") && missing(root, "build/starter/99-fake/runner.ptx") &&
                    missing(root, "build/starter/99-fake/build.stamp"),
                "%s: the earlier build's outputs are still in build/starter/99-fake", what);
  /* report.md: each check's row and its output */
  snprintf(path, sizeof path, "%s/grade-results/latest/report.md", root);
  char *md = read_text(path);
  int n = 0;
  for (const char *p = md; p && (p = strstr(p, reason)); p++) n++;
  ck_assert_msg(n >= 2 * N_CHECKS, "%s: report.md says '%s' %d times, want %d", what, reason, n, 2 * N_CHECKS);
  free(md);
  /* and no name ran as code: no file x anywhere */
  snprintf(path, sizeof path, "test -z \"$(find '%s' -name x)\"", root);
  ck_assert_msg(run_shell(path) == 0, "%s: a file x appeared: a file name ran as a command", what);
  remove_dir(root);
  free(root);
}
END_TEST

static void write_student(const char *root, const char *text) {
  char path[600];
  snprintf(path, sizeof path, "%s/starter/99-fake/scan.cu", root);
  write_text(path, text, 0);
}

/* The build follows the content, not the times: a file written back with an
 * older time (cp -p, touch -d, an archive) is rebuilt and graded as what it holds. */
START_TEST(test_build_content_not_mtime) {
  char *root = make_course(NULL, NULL, 2);
  write_student(root, "// version 1: FAKE_WRONG\n");
  shell_in(root, "cp -p starter/99-fake/scan.cu v1.cu");
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  json_t *j = latest(root);
  expect(j, "99-fake", "correct", "fail", "wrong: 3 of 10 outputs differ", "version 1");
  json_decref(j);
  write_student(root, "// version 2: right\n");
  shell_in(root, "touch -d '2001-01-01' starter/99-fake/scan.cu"); /* older than the build */
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  j = latest(root);
  expect(j, "99-fake", "correct", "pass", "2/2 cases correct", "version 2 with an old time");
  json_decref(j);
  shell_in(root, "cp -p v1.cu starter/99-fake/scan.cu"); /* back, with version 1's time */
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  j = latest(root);
  expect(j, "99-fake", "correct", "fail", "wrong: 3 of 10 outputs differ", "version 1 restored with cp -p");
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* An unchanged folder is not compiled again; a changed course file is. */
START_TEST(test_build_reused) {
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  ck_assert_int_eq(grade(root, "export FAKE_NVCC_LOG=$PWD/nvcc.log;", NULL), 0);
  ck_assert_msg(missing(root, "nvcc.log"), "an unchanged build was compiled again");
  shell_in(root, "echo '// changed' >> assignments/99-fake/runner/runner.cu");
  ck_assert_int_eq(grade(root, "export FAKE_NVCC_LOG=$PWD/nvcc.log;", NULL), 0);
  shell_in(root, "grep -q 'assignments/99-fake/runner/runner.cu' nvcc.log && ! grep -q 98-other nvcc.log");
  remove_dir(root);
  free(root);
}
END_TEST

/* A second .cu in the folder (a helper the student's file includes, a decoy)
 * is never compiled nor inspected as the student's object: the named file is. */
START_TEST(test_build_second_cu) {
  char *root = make_course(NULL, NULL, 2);
  shell_in(root, "printf '// a helper: FAKE_COMPILE_ERROR FAKE_USES_CUB\\n' > starter/99-fake/a_helpers.cu && "
                 "cp starter/99-fake/a_helpers.cu starter/99-fake/0.cu");
  ck_assert_int_eq(grade(root, "export FAKE_NVCC_LOG=$PWD/nvcc.log FAKE_INSPECT_LOG=$PWD/inspect.log;", NULL), 0);
  json_t *j = latest(root);
  expect(j, "99-fake", "correct", "pass", "2/2 cases correct", "a second .cu");
  json_decref(j);
  shell_in(root, "grep -q -- '-c build/starter/99-fake/stage/scan.cu' nvcc.log && ! grep -q 'a_helpers\\|0\\.cu' nvcc.log");
  shell_in(root, "grep -q '^build/starter/99-fake/student.o build/starter/99-fake/student.d scan.cu ' inspect.log");
  /* the helpers are in the staging folder, to be #included */
  ck_assert(!missing(root, "build/starter/99-fake/stage/a_helpers.cu"));
  remove_dir(root);
  free(root);
}
END_TEST

/* Ctrl-C during the build: the build says so, in every check's reason, and no
 * runner is left; with a GPU (_i 0) and without (_i 1). */
START_TEST(test_build_interrupted) {
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  shell_in(root, "echo FAKE_INTERRUPT >> starter/99-fake/scan.cu");
  ck_assert_int_eq(grade(root, _i ? "export SCANLAB_NO_GPU=1;" : NULL, NULL), 130);
  json_t *j = latest(root);
  for (int i = 0; i < N_CHECKS; i++)
    expect(j, "99-fake", CHECKS[i], "skipped", "interrupted: the build was stopped (nvcc did not finish)", "interrupted build");
  json_decref(j);
  ck_assert(missing(root, "build/starter/99-fake/runner"));
  remove_dir(root);
  free(root);
}
END_TEST

/* --no-build grades a build only when it was made from the files there now. */
START_TEST(test_build_no_build) {
  char *root = make_course(NULL, NULL, 2), cmd[1400];
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  snprintf(cmd, sizeof cmd, "cd '%s' && mv cuda/bin/nvcc nvcc.away && '%s' --root . --cuda ./cuda --no-build > nb.log 2>&1", root, grader);
  ck_assert_int_eq(run_shell(cmd), 0); /* no nvcc needed */
  shell_in(root, "echo '// changed' >> starter/99-fake/scan.cu");
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --root . --cuda ./cuda --no-build > nb.log 2>&1", root, grader);
  run_shell(cmd);
  json_t *j = latest(root);
  expect(j, "99-fake", "correct", "fail", "not built: build/starter/99-fake holds no build of these files of starter/99-fake", "--no-build");
  bystander_graded(j, "--no-build");
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

TCase *faults_build_tcase(void) {
  TCase *t = tcase_create("student build");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_build_fault, 0, 2 * N_BUILD_FAULTS);
  tcase_add_test(t, test_build_content_not_mtime);
  tcase_add_test(t, test_build_reused);
  tcase_add_test(t, test_build_second_cu);
  tcase_add_loop_test(t, test_build_interrupted, 0, 2);
  tcase_add_test(t, test_build_no_build);
  return t;
}
