/* lecture_support.c: running the lecture examples (course.h), for the lecture tests. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "tests.h"

int lecture_example_run(const char *env, const char *ex, const char *args, char **out, char **err) {
  char *dir = make_temp_dir("lect-ex"), cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "%s build/lectures/%s %s > '%s/out' 2> '%s/err'", env, ex, args, dir, dir);
  int rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/out", dir);
  *out = read_text(path);
  snprintf(path, sizeof path, "%s/err", dir);
  *err = read_text(path);
  ck_assert(*out && *err);
  remove_dir(dir);
  free(dir);
  return rc;
}

void lecture_example_check_usage(const char *ex) {
  char *out, *err;
  int rc = lecture_example_run("", ex, "--frobnicate", &out, &err);
  ck_assert_msg(rc == 2, "%s --frobnicate exited %d, want 2 (usage)", ex, rc);
  ck_assert_msg(text_is_one_line(err) && strstr(err, "takes no arguments"),
                "%s: want one line saying it takes no arguments, got:\n%s", ex, err);
  ck_assert_msg(!*out, "%s printed on stdout after a usage error:\n%s", ex, out);
  free(out);
  free(err);
}

void lecture_example_check_no_gpu(const char *ex) {
  char *out, *err;
  int rc = lecture_example_run("CUDA_VISIBLE_DEVICES=-1", ex, "", &out, &err);
  ck_assert_msg(rc == 3, "%s without a device exited %d, want 3; stderr:\n%s", ex, rc, err);
  regex_t re;
  ck_assert_int_eq(regcomp(&re, "^[^ :]+\\.(h|cu):[0-9]+: [^ ].*: .+$", REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0);
  ck_assert_msg(text_is_one_line(err) && regexec(&re, err, 0, NULL, 0) == 0,
                "%s: want one 'file:line: call: reason' line, got:\n%s", ex, err);
  regfree(&re);
  ck_assert_msg(!strchr(out, ','), "%s printed a table without a GPU:\n%s", ex, out);
  free(out);
  free(err);
}
