/* test_names.c: an assignment's name stays in its folders (issue 41). No file git tracks
 * outside assignments/, starter/, solutions/, docs/, lectures/ and the *.md files spells
 * the name of a folder of assignments/; a fixture checkout shows the check catches one.
 * Run from the repository root. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "tests.h"

/* Everything of an assignment lives in its three folders (issue 41): no file git tracks
 * outside assignments/, starter/, solutions/, docs/, lectures/ and the *.md files spells the
 * name of a folder of assignments/ (a test of one assignment's files is in its tests/; a
 * course test finds an assignment from the folders; the grader's tests use the fixture
 * assignments of grader/tests/fixtures/; an assignment's research is in its research/). */

/* The tracked files under root that name a folder of root/assignments/ outside its homes:
 * "file:line: names NAME" lines appended to out. Returns the hits, or -1 when root is not
 * in a git checkout. */
static int names_outside_home(const char *root, char *out, size_t cap) {
  char cmd[2048], pattern[1024];
  snprintf(cmd, sizeof cmd, "cd '%s' && git rev-parse --is-inside-work-tree > /dev/null 2>&1", root);
  if (run_shell(cmd) != 0) return -1;
  glob_t g;
  snprintf(pattern, sizeof pattern, "%s/assignments/*/", root);
  ck_assert_msg(glob(pattern, GLOB_ONLYDIR, NULL, &g) == 0, "no folders %s", pattern);
  int hits = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    char name[256];
    const char *a = g.gl_pathv[i] + strlen(root) + strlen("/assignments/");
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "/"), a);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && git grep -nIF -e '%s' -- . ':!assignments' ':!starter' ':!solutions' ':!docs' ':!lectures' ':!*.md'",
             root, name);
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "cannot run: %s", cmd);
    char line[4096];
    while (fgets(line, sizeof line, p)) {
      char *colon = strchr(line, ':'), *colon2 = colon ? strchr(colon + 1, ':') : NULL;
      if (!colon2) continue;
      *colon = 0;
      hits++;
      size_t used = strlen(out);
      snprintf(out + used, cap - used, "%s:%.*s: names %s\n", line, (int)(colon2 - colon - 1), colon + 1, name);
    }
    pclose(p);
  }
  globfree(&g);
  return hits;
}

START_TEST(test_names_stay_home) {
  static char out[1 << 16];
  out[0] = 0;
  int hits = names_outside_home(".", out, sizeof out);
  if (hits < 0) {
    printf("test_names_stay_home: skipped: not in a git checkout (it reads the files git tracks)\n");
    return;
  }
  if (hits) printf("test_names_stay_home:\n%s", out); /* every hit; the failure's message holds the first (Check's limit) */
  fflush(stdout);
  ck_assert_msg(hits == 0,
                "%d line(s) outside assignments/, starter/, solutions/, docs/, lectures/ and *.md name an assignment's folder "
                "(move the check into assignments/NN/tests/, or find the assignment from the folders):\n%.2000s%s",
                hits, out, strlen(out) > 2000 ? "\n... (the rest above)" : "");
}
END_TEST

/* The check on a fixture checkout: a name in tests/ and in the Makefile is caught (file:line),
 * and so is one in research/ (no longer a home); one in the homes, in a *.md or in an untracked file is not. */
START_TEST(test_names_stay_home_fixture) {
  char *dir = make_temp_dir("names-home"), path[1024], cmd[2048];
  static const struct {
    const char *file, *text;
  } FILES[] = {
      {"assignments/07-fake-scan/grade.conf", "name = 07-fake-scan\n"},
      {"starter/07-fake-scan/x.cu", "// 07-fake-scan\n"},
      {"docs/a.txt", "07-fake-scan\n"},
      {"lectures/b.cu", "07-fake-scan\n"},
      {"notes/c.md", "07-fake-scan\n"},
      {"research/d.sh", "07-fake-scan\n"},
      {"tests/test_x.c", "/* fine */\nrun(\"07-fake-scan\");\n"},
      {"Makefile", "A := 07-fake-scan\n"},
  };
  for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, FILES[i].file);
    write_text(path, FILES[i].text, 0);
  }
  snprintf(cmd, sizeof cmd, "cd '%s' && git init -q . && git add . && echo 07-fake-scan > untracked.c", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  static char out[8192];
  out[0] = 0;
  ck_assert_int_eq(names_outside_home(dir, out, sizeof out), 3);
  ck_assert_msg(strstr(out, "tests/test_x.c:2: names 07-fake-scan\n") && strstr(out, "Makefile:1: names 07-fake-scan\n") &&
                    strstr(out, "research/d.sh:1: names 07-fake-scan\n"),
                "%s", out);
  snprintf(cmd, sizeof cmd, "rm -rf '%s/.git'", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  ck_assert_int_eq(names_outside_home(dir, out, sizeof out), -1);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *names_suite(void) {
  Suite *s = suite_create("names");
  TCase *t = tcase_create("home");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_names_stay_home);
  tcase_add_test(t, test_names_stay_home_fixture);
  suite_add_tcase(s, t);
  return s;
}
