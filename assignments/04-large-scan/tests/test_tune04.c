/* test_tune04.c: this assignment's tuning script (research/tune.sh of this folder), on
 * the CPU: its refusals, and its `check` run by the real judge on the CPU tier's fake
 * runner. make test's build of the script (bash -n, one shape compiled) is assignment.mk's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define TUNE "assignments/04-large-scan/research/tune.sh"

/* A bad shape, revision or verb is one line and exit 2; `run` on a machine
 * without a GPU (or without a build) says why and fails. */
static const refusal REFUSALS[] = {
    {"bash " TUNE " build 7x7", "tune-04: '7x7' is not THREADSxITEMSxBLOCKS", 0},
    {"bash " TUNE " build 512x16x2xha", "tune-04: '512x16x2xha' is not THREADSxITEMSxBLOCKS", 0},
    {"bash " TUNE " frob", "usage: " TUNE, 0},
    {"bash " TUNE " build no-such-rev:512x16x2", "tune-04: no solutions/04-large-scan/large_scan.cu at git revision 'no-such-rev'", 0},
    {"SCANLAB_NO_GPU=1 bash " TUNE " run", "tune-04: ", 1},
};

/* Row _i of REFUSALS, its output logged in a folder of its own. */
START_TEST(test_tune04_refuses) { expect_refusal(&REFUSALS[_i], "tune04"); }
END_TEST

/* tune.sh check, run by the tests' judge (build/tests/judge) on the CPU tier's fake
 * runner (build/tests/fake-runner, the judge's fixture 98-judge-fixture, with its
 * variants for the check's) in a tree of its own: a shape that scans right is
 * right in every case it is given, one that crashes makes the check fail and
 * says which shape and variant, and a shape left from an earlier build is gone
 * after `build` (which then refuses a bad shape). */
START_TEST(test_tune04_check) {
  char *dir = make_temp_dir("tune04check"), path[2048], cmd[4096];
  const char *pwd = getenv("PWD");
  snprintf(path, sizeof path, "%s/" TUNE, dir);
  char *script = read_text(TUNE);
  ck_assert_ptr_nonnull(script);
  write_text(path, script, 1);
  free(script);
  snprintf(path, sizeof path, "%s/build/tools/gpuinfo", dir);
  write_text(path, "#!/bin/sh\necho a fake GPU\n", 1);
  static const struct {
    const char *shape, *student;
  } shapes[] = {{"512x16x2", "honest"}, {"256x16x4", "crash"}};
  for (int i = 0; i < 2; i++) {
    char text[1024];
    snprintf(path, sizeof path, "%s/build/tune-04/%s", dir, shapes[i].shape);
    snprintf(text, sizeof text, "#!/bin/sh\nFAKE_STUDENT=%s exec %s/build/tests/fake-runner \"$@\"\n", shapes[i].student, pwd);
    write_text(path, text, 1);
  }
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s/build/grader' && ln -s '%s/build/tests/judge' '%s/build/grader/judge' && cd '%s' && "
           "TUNE_CHECK_CASES=n1025,rep-few TUNE_CHECK_ASSIGNMENT=98-judge-fixture TUNE_CHECK_VARIANTS='scan scan_alt repeats' "
           "bash " TUNE " check > check.txt 2>&1",
           dir, pwd, dir, dir);
  ck_assert_int_eq(run_shell(cmd), 1);
  snprintf(path, sizeof path, "%s/check.txt", dir);
  char *out = read_text(path);
  ck_assert_ptr_nonnull(out);
  static const char *const want[] = {"# tune-04 check on a fake GPU: cases n1025,rep-few, one call each",
                                     "512x16x2 scan: 2 cases right",
                                     "512x16x2 scan_alt: 2 cases right",
                                     "512x16x2 repeats: 2 cases right",
                                     "256x16x4 scan: FAILED (judge exit"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    ck_assert_msg(strstr(out, want[i]), "'%s' is not in the check's output:\n%s", want[i], out);
  free(out);
  /* build refuses a bad shape before it touches the last build, and clears the
   * last build's shapes before it builds new ones (here with a compiler that fails). */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && mkdir -p build/runner && touch build/runner/librunner.a && "
           "! bash " TUNE " build 512x16x2 7x7 > /dev/null 2>&1 && test -e build/tune-04/512x16x2",
           dir);
  ck_assert_msg(run_shell(cmd) == 0, "tune.sh build with a bad shape changed the last build in %s/build/tune-04", dir);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && ! NVCC=false bash " TUNE " build 512x16x2 > /dev/null 2>&1 && "
           "test ! -e build/tune-04/512x16x2 && test ! -e build/tune-04/256x16x4",
           dir);
  ck_assert_msg(run_shell(cmd) == 0, "tune.sh build left an earlier build's shapes in %s/build/tune-04", dir);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *tune04_suite(void) {
  Suite *s = suite_create("tune04");
  TCase *t = tcase_create("tune.sh");
  tcase_set_timeout(t, 300);
  tcase_add_loop_test(t, test_tune04_refuses, 0, (int)(sizeof REFUSALS / sizeof *REFUSALS));
  tcase_add_test(t, test_tune04_check);
  suite_add_tcase(s, t);
  return s;
}
