/* test_stated_points.c: the teaching suite's stated points (test_teaching.c):
 * the no-GPU points and the untouched starter's points a handout states are
 * the points grade.conf gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "teaching.h"
#include "tests.h"

/* ---------------------------------------------------------------- stated points
 *
 * A handout states how many of its 100 points need no GPU: "N of the 100
 * points", "N points need no GPU" (and a few more phrasings, ANYWHERE below)
 * wherever they appear, and any "N point(s)" in its section "Without an
 * NVIDIA GPU" (leaving out 0, "with 0 points", and "the 100 points"). Every
 * such number must be the sum of the ptx and model checks of grade.conf. */

/* Calls back for every number in s followed by `suffix`. */
static int claims_in(const char *s, const char *suffix, int skip_the, double want, int *claims, char *bad,
                     size_t cap) {
  size_t sl = strlen(suffix);
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || (p > s && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))) continue;
    char *end;
    double v = strtod(p, &end);
    if (strncmp(end, suffix, sl)) continue;
    if (skip_the && (v == 0 || (p - s >= 4 && !strncmp(p - 4, "the ", 4)))) continue;
    if (v != want) {
      snprintf(bad, cap, "\"%.*s\" but the ptx and model checks of grade.conf are worth %g", (int)(end - p + sl), p,
               want);
      return -1;
    }
    (*claims)++;
  }
  return 0;
}

/* Returns how many statements of no-GPU points the handout makes, or -1 (bad set). */
static int stated_no_gpu_points(const char *text, double want, char *bad, size_t cap) {
  int claims = 0;
  char *all = flatten(text, strlen(text));
  static const char *const ANYWHERE[] = {" of the 100 points", " points need no GPU", " points that need no GPU",
                                          " points without a GPU", " points earned without a GPU"};
  int rc = 0;
  for (size_t i = 0; !rc && i < sizeof ANYWHERE / sizeof *ANYWHERE; i++)
    rc = claims_in(all, ANYWHERE[i], 0, want, &claims, bad, cap);
  free(all);
  const char *sec = strstr(text, "### Without an NVIDIA GPU");
  if (!rc && sec) {
    const char *end = strstr(sec + 1, "\n#");
    char *body = flatten(sec, end ? (size_t)(end - sec) : strlen(sec));
    rc = claims_in(body, " point", 1, want, &claims, bad, cap);
    free(body);
  }
  return rc ? -1 : claims;
}

static double no_gpu_points(const assignment_conf *a) {
  double sum = 0;
  for (int c = 0; c < a->n_checks; c++)
    if (!conf_kind_needs_gpu(a->checks[c].kind)) sum += a->checks[c].points;
  return sum;
}

/* Assignment name's handout (its path in path), which must exist. */
static char *read_handout(const char *name, char *path, size_t cap) {
  snprintf(path, cap, "assignments/%s/README.md", name);
  char *text = read_text(path);
  ck_assert_msg(text != NULL, "%s is missing", path);
  return text;
}

START_TEST(test_handout_stated_points) {
  char names[16][64];
  int n = list_assignments(names, 16);
  for (int i = 0; i < n; i++) {
    static assignment_conf a;
    load_conf(names[i], &a);
    char path[512], bad[512];
    char *text = read_handout(names[i], path, sizeof path);
    int claims = stated_no_gpu_points(text, no_gpu_points(&a), bad, sizeof bad);
    ck_assert_msg(claims != -1, "%s says %s", path, bad);
    ck_assert_msg(claims >= 1, "%s does not say how many points need no GPU (\"N of the 100 points\")", path);
    free(text);
  }
}
END_TEST

/* What a handout says the untouched starter earns must be what grade.conf
 * says: "untouched starter earns N" is the sum of the checks marked
 * expect_starter = pass; "untouched starter scores at most N" lies between
 * that sum and 10 (the course's rule). */
START_TEST(test_handout_stated_starter_points) {
  char names[16][64];
  int n = list_assignments(names, 16);
  for (int i = 0; i < n; i++) {
    static assignment_conf a;
    load_conf(names[i], &a);
    double pass = 0;
    for (int c = 0; c < a.n_checks; c++)
      if (a.checks[c].expect_starter == EXPECT_PASS) pass += a.checks[c].points;
    char path[512];
    char *text = read_handout(names[i], path, sizeof path);
    char *all = flatten(text, strlen(text));
    static const char EARNS[] = "untouched starter earns ", AT_MOST[] = "untouched starter scores at most ";
    for (const char *p = strstr(all, EARNS); p; p = strstr(p + 1, EARNS)) {
      double v = strtod(p + strlen(EARNS), NULL);
      ck_assert_msg(v == pass, "%s says the untouched starter earns %g, but its expect_starter = pass checks are worth %g",
                    path, v, pass);
    }
    for (const char *p = strstr(all, AT_MOST); p; p = strstr(p + 1, AT_MOST)) {
      double v = strtod(p + strlen(AT_MOST), NULL);
      ck_assert_msg(v >= pass && v <= 10, "%s says the untouched starter scores at most %g (want %g to 10)", path, v,
                    pass);
    }
    free(all);
    free(text);
  }
}
END_TEST

/* The phrasings the old test missed, and the ones it caught, on fixtures. */
START_TEST(test_stated_points_fixtures) {
  char bad[512];
  static const char OLD_01[] = "### Without an NVIDIA GPU\n\n`make grade A=01` still builds your file and still runs "
                               "the four `ptx` checks, because they only\nneed `nvcc -ptx`. That is 25 of the 100 "
                               "points. It says \"no CUDA device\", and marks the other checks\n*ungraded: no GPU* "
                               "with 0 points.\n\n## Questions\n";
  ck_assert_int_eq(stated_no_gpu_points(OLD_01, 30, bad, sizeof bad), -1);
  ck_assert_msg(strstr(bad, "25 of the 100 points") != NULL, "%s", bad);
  ck_assert_int_eq(stated_no_gpu_points(OLD_01, 25, bad, sizeof bad), 1);
  ck_assert_int_eq(stated_no_gpu_points("runs the checks (10 of the\n100 points) and", 15, bad, sizeof bad), -1);
  ck_assert_int_eq(stated_no_gpu_points("### Without an NVIDIA GPU\n\nSo 20 points need no GPU.\n", 30, bad,
                                        sizeof bad), -1);
  ck_assert_int_eq(stated_no_gpu_points("## Grading\n\nHere 20 points need\nno GPU.\n", 30, bad, sizeof bad), -1);
  ck_assert_int_ge(stated_no_gpu_points("### Without an NVIDIA GPU\n\nSo 30 points need no GPU, the other 70 "
                                        "are\n## next\n", 30, bad, sizeof bad), 1);
}
END_TEST

void teaching_stated_points_tests(TCase *t) {
  tcase_add_test(t, test_handout_stated_points);
  tcase_add_test(t, test_handout_stated_starter_points);
  tcase_add_test(t, test_stated_points_fixtures);
}
