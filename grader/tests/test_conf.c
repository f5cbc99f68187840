/* test_conf.c: grade.conf parsing: a good file loads with its defaults; every
 * bad file gives "file:line: reason" pointing at the right line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "tests.h"

#define HEAD "[assignment]\nname = 99-fake\ntitle = Fake\n"
#define PTX_CHECK "[ptx-a]\nkind = ptx\nkernel = k\npattern = ld\\.shared\nmax = 3\npoints = 5\n"

static char *dir;

static void setup(void) { dir = make_temp_dir("conf"); }
static void teardown(void) {
  remove_dir(dir);
  free(dir);
}

static int load(const char *text, assignment_conf *a, char *err, char *path) {
  sprintf(path, "%s/grade.conf", dir);
  write_text(path, text, 0);
  return conf_load(path, a, err, 512);
}

START_TEST(test_conf_good) {
  static assignment_conf a;
  char err[512], path[512];
  int rc = load(HEAD "timeout = 12\n\n; a comment\n[correct-x]\nkind = correct\nvariant = v\ncases = n1, n2 ,n3\npoints = 10\n"
                     "expect_starter = fail\n\n" PTX_CHECK "\n[perf-x]\nkind = perf\nvariant = v\ncase = n3\nfull_ratio = 1.1\npoints = 7.5\n"
                     "[san]\nkind = sanitizer\ntool = racecheck\nvariant = v\ncases = n1\npoints = 0\n",
                &a, err, path);
  ck_assert_msg(rc == 0, "good file rejected: %s", err);
  ck_assert_str_eq(a.name, "99-fake");
  ck_assert_int_eq(a.n_checks, 4);
  ck_assert_int_eq(a.checks[0].n_cases, 3);
  ck_assert_str_eq(a.checks[0].cases[2], "n3");
  ck_assert_int_eq(a.checks[0].expect_starter, EXPECT_FAIL);
  ck_assert_int_eq(a.checks[0].line, 7);
  ck_assert_double_eq(a.checks[0].timeout_s, 12);
  ck_assert_str_eq(a.checks[0].title, "correct-x"); /* the name when no title */
  ck_assert_int_eq(a.checks[1].min, -1);
  ck_assert_int_eq(a.checks[1].max, 3);
  ck_assert_int_eq(a.checks[2].runs, 3);
  ck_assert_double_eq(a.checks[2].points, 7.5);
  ck_assert_double_eq(a.checks[3].timeout_s, 48); /* sanitizers get 4x */
  ck_assert_double_eq(conf_total_points(&a), 22.5);
}
END_TEST

/* Each bad file, the line its error must name, and words the reason must hold. */
static const struct {
  const char *text;
  int line;
  const char *why;
} BAD[] = {
    {"", 1, "no [assignment] section"},
    {"[assignment]\ntitle = x\n" PTX_CHECK, 1, "no name"},
    {HEAD, 3, "no checks"},
    {HEAD "this is not ini\n" PTX_CHECK, 4, "syntax error"},
    {HEAD "[broken\n" PTX_CHECK, 4, "syntax error"},
    {HEAD "colour = red\n" PTX_CHECK, 4, "unknown key 'colour' in [assignment]"},
    {HEAD PTX_CHECK "colour = red\n", 10, "unknown key 'colour' in [ptx-a]"},
    {HEAD PTX_CHECK PTX_CHECK, 10, "duplicate section [ptx-a] (first at line 4)"},
    {HEAD "[assignment]\n" PTX_CHECK, 4, "duplicate section [assignment]"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = -5\n", 9, "points: -5 is negative"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\n", 4, "missing key 'points'"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = lots\n", 9, "not a number"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = 1\npoints = 2\n", 10, "given twice"},
    {HEAD "[ptx-a]\nkind = magic\npoints = 1\n", 5, "kind: 'magic' is not one of"},
    {HEAD "[ptx-a]\npoints = 1\n", 4, "missing key 'kind'"},
    {HEAD "[c]\nkind = correct\nvariant = v\npoints = 1\n", 4, "kind correct needs key 'cases'"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nkernel = k\npoints = 1\n", 4, "key 'kernel' does not apply to kind correct"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a,b\npoints = 1\n", 4, "exactly one case"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncase = a\nruns = 2\npoints = 1\n", 8, "runs: '2' is not an integer in [3, 50]"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncase = a\nfull_ratio = 0\npoints = 1\n", 8, "full_ratio"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = (unclosed\nmax = 1\npoints = 1\n", 7, "not a POSIX extended regular expression"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = ld\npoints = 1\n", 4, "needs min, max or both"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = ld\nmin = 5\nmax = 2\npoints = 1\n", 4, "min 5 is above max 2"},
    {HEAD "[s]\nkind = sanitizer\ntool = valgrind\nvariant = v\ncases = a\npoints = 1\n", 6, "tool: 'valgrind'"},
    {HEAD "[c]\nkind = correct\nvariant = bad name\ncases = a\npoints = 1\n", 6, "variant: 'bad name' is not a name"},
    {HEAD "[c d]\nkind = ptx\n", 4, "check name 'c d'"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\nvisibility = secret\n", 9, "visibility"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\nexpect_starter = maybe\n", 9, "expect_starter"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\ntimeout = 0\n", 9, "timeout"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\ntitle = "
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", 9, "line longer than"},
};

START_TEST(test_conf_bad) {
  static assignment_conf a;
  char err[512] = "", path[512], want[600];
  ck_assert_int_eq(load(BAD[_i].text, &a, err, path), -1);
  snprintf(want, sizeof want, "%s:%d: ", path, BAD[_i].line);
  ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: error '%s' does not start with '%s'", _i, err, want);
  ck_assert_msg(strstr(err, BAD[_i].why) != NULL, "case %d: error '%s' lacks '%s'", _i, err, BAD[_i].why);
  ck_assert_msg(strchr(err, '\n') == NULL, "case %d: error is not one line", _i);
}
END_TEST

START_TEST(test_conf_missing_file) {
  static assignment_conf a;
  char err[512];
  ck_assert_int_eq(conf_load("/nonexistent/grade.conf", &a, err, sizeof err), -1);
  ck_assert_str_eq(err, "/nonexistent/grade.conf: cannot open: No such file or directory");
}
END_TEST

Suite *conf_suite(void) {
  Suite *s = suite_create("conf");
  TCase *t = tcase_create("grade.conf");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_conf_good);
  tcase_add_loop_test(t, test_conf_bad, 0, sizeof BAD / sizeof *BAD);
  tcase_add_test(t, test_conf_missing_file);
  suite_add_tcase(s, t);
  return s;
}
