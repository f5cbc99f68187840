/* teaching_support.c: the helpers the teaching suite's files share (teaching.h). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "teaching.h"
#include "tests.h"

/* The text with newlines as spaces, so that a claim may wrap. */
char *flatten(const char *text, size_t len) {
  char *s = strndup(text, len);
  for (char *p = s; *p; p++)
    if (*p == '\n') *p = ' ';
  return s;
}

/* Loads assignments/NAME/grade.conf into a; fails the test when it does not load. */
void load_conf(const char *assignment, assignment_conf *a) {
  char path[512], err[512];
  snprintf(path, sizeof path, "assignments/%s/grade.conf", assignment);
  ck_assert_msg(conf_load(path, a, err, sizeof err) == 0, "%s", err);
}

/* The assignments: folders of assignments/ with a grade.conf. */
int list_assignments(char names[][64], int cap) {
  glob_t g;
  int n = 0;
  if (glob("assignments/*/grade.conf", 0, NULL, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc && n < cap; i++) {
      const char *a = g.gl_pathv[i] + strlen("assignments/");
      snprintf(names[n++], 64, "%.*s", (int)(strchr(a, '/') - a), a);
    }
  globfree(&g);
  ck_assert_int_gt(n, 0);
  return n;
}
