/* test_tune05.c: this assignment's tuning script (research/tune.sh of this folder), on
 * the CPU: its refusals. make test's build of the script (bash -n, its `ref` variant
 * built) is assignment.mk's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define TUNE "assignments/05-renderer/research/tune.sh"

/* A setting it does not know or out of range, an unknown revision or verb are
 * one line and exit 2; `run` without a GPU says why and fails. */
static const refusal REFUSALS[] = {
    {"bash " TUNE " build k4-frob", "tune-05: 'frob' of 'k4-frob' is not smallN, kN, mbN, atREV or ref", 0},
    {"bash " TUNE " build k8", "tune-05: 'k8' of 'k8': stage_k is 1 to 4", 0},
    {"bash " TUNE " build atnosuchrev", "tune-05: no solutions/05-renderer at git revision 'nosuchrev'", 0},
    {"bash " TUNE " frob", "usage: " TUNE, 0},
    {"SCANLAB_NO_GPU=1 bash " TUNE " run", "tune-05: ", 1},
};

/* Row _i of REFUSALS, its output logged in a folder of its own. */
START_TEST(test_tune05_refuses) { expect_refusal(&REFUSALS[_i], "tune05"); }
END_TEST

Suite *tune05_suite(void) {
  Suite *s = suite_create("tune05");
  TCase *t = tcase_create("tune.sh");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_tune05_refuses, 0, (int)(sizeof REFUSALS / sizeof *REFUSALS));
  suite_add_tcase(s, t);
  return s;
}
