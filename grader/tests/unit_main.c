/* unit_main.c: runs the unit suites of the CPU tier in one binary: the grader's
 * (grader/tests/), the course's (tests/) and each assignment's (assignments/NN/tests/),
 * every suite that build/tests/suites.c lists (written by grader/tests/suites.sh from the
 * test files make finds); exits nonzero on any failure. */
#include <stdlib.h>

#include "tests.h"

int main(void) {
  SRunner *sr = srunner_create(NULL);
  for (size_t i = 0; unit_suites[i] != NULL; i++) srunner_add_suite(sr, unit_suites[i]());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
