/* test_proc.c: child processes that hang, crash, flood or say nothing. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proc.h"
#include "tests.h"

static proc_result *sh(const char *script, double timeout) {
  static proc_result r;
  char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
  proc_run(argv, timeout, &r);
  return &r;
}

START_TEST(test_proc_exit_and_channels) {
  proc_result *r = sh("echo out; echo err >&2; echo 'result x' >&3; exit 4", 5);
  ck_assert_int_eq(r->status, PROC_EXITED);
  ck_assert_int_eq(r->exit_code, 4);
  char *out = capture_text(&r->out), *err = capture_text(&r->err), *res = capture_text(&r->results);
  ck_assert_str_eq(out, "out\n");
  ck_assert_str_eq(err, "err\n");
  ck_assert_str_eq(res, "result x\n"); /* fd 3 is its own channel, apart from stdout */
  free(out), free(err), free(res);
}
END_TEST

START_TEST(test_proc_timeout_kills_group) {
  time_t t0 = time(NULL);
  /* A child that ignores SIGTERM and leaves a grandchild holding the pipes. */
  proc_result *r = sh("trap '' TERM; sleep 100 & while :; do :; done", 0.5);
  ck_assert_int_eq(r->status, PROC_TIMEOUT);
  ck_assert_int_le(time(NULL) - t0, 4);
  char buf[128];
  ck_assert(strstr(proc_describe(r, buf, sizeof buf), "timed out after") != NULL);
}
END_TEST

START_TEST(test_proc_grandchild_does_not_hold_grader) {
  time_t t0 = time(NULL);
  proc_result *r = sh("sleep 100 & echo done", 10);
  ck_assert_int_eq(r->status, PROC_EXITED);
  ck_assert_int_le(time(NULL) - t0, 4);
}
END_TEST

START_TEST(test_proc_signals) {
  proc_result *r = sh("kill -SEGV $$", 5);
  ck_assert_int_eq(r->status, PROC_SIGNALED);
  ck_assert_int_eq(r->sig, SIGSEGV);
  r = sh("kill -ABRT $$", 5);
  ck_assert_int_eq(r->sig, SIGABRT);
  char buf[128];
  ck_assert_str_eq(proc_describe(r, buf, sizeof buf), "killed by signal 6 (Aborted)");
}
END_TEST

START_TEST(test_proc_flood_is_bounded) {
  /* 100 MB on stdout: kept to head + tail, counted, and the end survives. */
  proc_result *r = sh("head -c 100000000 /dev/zero | tr '\\0' x; echo; echo THE-END", 60);
  ck_assert_int_eq(r->status, PROC_EXITED);
  ck_assert_uint_eq(r->out.total, 100000000 + 9);
  char *text = capture_text(&r->out);
  ck_assert_uint_lt(strlen(text), 2 * CAPTURE_KEEP + 100);
  ck_assert(strstr(text, "bytes omitted") != NULL);
  ck_assert(strstr(text, "THE-END") != NULL);
  free(text);
}
END_TEST

START_TEST(test_proc_silent_and_missing) {
  proc_result *r = sh("exit 0", 5);
  ck_assert_int_eq(r->status, PROC_EXITED);
  ck_assert_uint_eq(r->out.total + r->err.total + r->results.total, 0);
  char *argv[] = {"/nonexistent/runner", NULL};
  proc_run(argv, 5, r);
  ck_assert_int_eq(r->status, PROC_SPAWN_FAILED);
  ck_assert(strstr(r->spawn_error, "No such file or directory") != NULL);
}
END_TEST

START_TEST(test_proc_closes_channels_then_hangs) {
  proc_result *r = sh("exec >&- 2>&- 3>&-; sleep 100", 0.5);
  ck_assert_int_eq(r->status, PROC_TIMEOUT);
}
END_TEST

Suite *proc_suite(void) {
  Suite *s = suite_create("proc");
  TCase *t = tcase_create("child");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_proc_exit_and_channels);
  tcase_add_test(t, test_proc_timeout_kills_group);
  tcase_add_test(t, test_proc_grandchild_does_not_hold_grader);
  tcase_add_test(t, test_proc_signals);
  tcase_add_test(t, test_proc_flood_is_bounded);
  tcase_add_test(t, test_proc_silent_and_missing);
  tcase_add_test(t, test_proc_closes_channels_then_hangs);
  suite_add_tcase(s, t);
  return s;
}
