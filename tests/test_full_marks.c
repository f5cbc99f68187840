/* test_full_marks.c: each handout says what full marks take (issue 40, "each
 * handout says what full marks take").
 *
 * Every assignments/NN-name/README.md has a section "## What full marks take"
 * whose first table has the columns design | check | time | reference |
 * points, one row a design and perf check:
 *   - check: a perf check of the assignment's grade.conf (`perf-...`), or
 *     "all" for a design's total;
 *   - time and reference: the design's and the reference's time on that
 *     check's case (a number with ms, us or µs), or "not measured";
 *   - points: "P of N", N the check's points in grade.conf and P what
 *     grader/src/score.c's score_perf gives for the time against the
 *     reference with the check's full_ratio (rounded as the grader rounds);
 *     "not measured" where the time is; an "all" row's P and N are the sums
 *     of the design's rows above it, measured ones only being allowed.
 * Every perf check has a measured row, and one check has one reference time.
 * Which file each time was measured in is the figures test's (test_figures.c:
 * a source tag after the table), so the points follow from measured files
 * through the grader's own formula. Run from the repository root. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "score.h"
#include "teaching.h"
#include "tests.h"

static const char HEADING[] = "## What full marks take";

/* A time cell: ms; -1 when "not measured"; -2 when unreadable. */
static double time_ms(const char *cell) {
  if (strstr(cell, "not measured")) return -1;
  char *end;
  double v = strtod(cell, &end);
  if (end == cell) return -2;
  while (*end == ' ') end++;
  if (!strncmp(end, "ms", 2)) return v;
  if (!strncmp(end, "us", 2) || !strncmp(end, "\xc2\xb5s", 3) || !strncmp(end, "\xce\xbcs", 3)) return v / 1000;
  return -2;
}

/* The cells of a table row, trimmed, backticks dropped; how many. */
static int cells(const char *line, char out[][256], int cap) {
  int n = 0;
  const char *p = strchr(line, '|');
  while (p && n < cap) {
    const char *q = strchr(p + 1, '|');
    if (!q) break;
    const char *a = p + 1, *b = q;
    while (a < b && isspace((unsigned char)*a)) a++;
    while (b > a && isspace((unsigned char)b[-1])) b--;
    char *o = out[n];
    for (; a < b && o < out[n] + 255; a++)
      if (*a != '`') *o++ = *a;
    *o = 0;
    n++;
    p = q;
  }
  return n;
}

static void add(char *msg, size_t cap, const char *fmt, ...) {
  size_t len = strlen(msg);
  if (len + 2 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  msg[len] = '\n';
  vsnprintf(msg + len + 1, cap - len - 1, fmt, ap);
  va_end(ap);
}

/* Checks one handout's section against its grade.conf; problems appended to msg. */
static void check_full_marks(const char *file, const char *text, const assignment_conf *a, char *msg, size_t cap) {
  const char *sec = strstr(text, HEADING);
  if (!sec) {
    add(msg, cap, "%s: no \"%s\" section (a table of designs and the perf points each earns)", file, HEADING);
    return;
  }
  int line = 1;
  for (const char *p = text; p < sec; p++) line += *p == '\n';
  double ref[CONF_MAX_CHECKS];
  int measured[CONF_MAX_CHECKS] = {0};
  for (int i = 0; i < CONF_MAX_CHECKS; i++) ref[i] = -1;
  char design[256] = "";
  double sum_p = 0, sum_n = 0;
  int rows = 0, in_table = 0, all_measured = 1;
  for (const char *s = sec; *s; line++) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    char row[1024];
    snprintf(row, sizeof row, "%.*s", (int)(end - s), s);
    s = nl ? nl + 1 : end;
    if (row[0] != '|') {
      if (in_table) break;
      if (!strncmp(row, "## ", 3) && strncmp(row, HEADING, strlen(HEADING))) break;
      continue;
    }
    in_table = 1;
    char c[8][256];
    int n = cells(row, c, 8);
    if (n != 5) {
      add(msg, cap, "%s:%d: a row of design | check | time | reference | points has %d cells", file, line, n);
      continue;
    }
    if (!strcmp(c[0], "design") || !strncmp(c[0], "---", 3)) continue;
    if (strcmp(c[0], design)) snprintf(design, sizeof design, "%s", c[0]), sum_p = sum_n = 0, all_measured = 1;
    double p, of;
    int got = sscanf(c[4], "%lf of %lf", &p, &of);
    if (!strcmp(c[1], "all")) {
      if (got != 2) add(msg, cap, "%s:%d: a design's total reads \"P of N\", not \"%s\"", file, line, c[4]);
      else if (!all_measured) add(msg, cap, "%s:%d: %s: a total over rows not measured", file, line, design);
      else if (fabs(p - sum_p) > 0.005 || fabs(of - sum_n) > 0.005)
        add(msg, cap, "%s:%d: %s: the total says %.2f of %g, its rows add up to %.2f of %g", file, line, design, p, of, sum_p,
            sum_n);
      continue;
    }
    const check_conf *k = NULL;
    int ki = -1;
    for (int i = 0; i < a->n_checks; i++)
      if (!strcmp(a->checks[i].name, c[1])) k = &a->checks[i], ki = i;
    if (!k || k->kind != KIND_PERF) {
      add(msg, cap, "%s:%d: %s is not a perf check of %s", file, line, c[1], a->path);
      continue;
    }
    rows++;
    double t = time_ms(c[2]), r = time_ms(c[3]);
    if (t == -2 || r < 0) {
      add(msg, cap, "%s:%d: %s: the time (\"%s\") and the reference's (\"%s\") read \"0.123 ms\" or \"12.3 us\" (the time may be \"not measured\")",
          file, line, c[1], c[2], c[3]);
      continue;
    }
    if (ref[ki] < 0) ref[ki] = r;
    else if (fabs(ref[ki] - r) > 1e-12)
      add(msg, cap, "%s:%d: %s: two reference times in one table (%s)", file, line, c[1], c[3]);
    if (t < 0) {
      all_measured = 0;
      if (!strstr(c[4], "not measured")) add(msg, cap, "%s:%d: %s: a time not measured earns points \"not measured\"", file, line, c[1]);
      continue;
    }
    measured[ki] = 1;
    double want = score_round(score_perf(k->points, k->full_ratio, t, r, 1));
    if (got != 2 || fabs(of - k->points) > 1e-9)
      add(msg, cap, "%s:%d: %s: points read \"P of %g\" (grade.conf), not \"%s\"", file, line, c[1], k->points, c[4]);
    else if (fabs(p - want) > 0.005)
      add(msg, cap, "%s:%d: %s: %s earns %.2f of %g at %s against %s (full_ratio %.2f, grader/src/score.c), the table says %.2f",
          file, line, design, c[1], want, k->points, c[2], c[3], k->full_ratio, p);
    sum_p += want, sum_n += k->points;
  }
  if (!rows) add(msg, cap, "%s: \"%s\" has no table of design | check | time | reference | points", file, HEADING);
  for (int i = 0; i < a->n_checks; i++)
    if (a->checks[i].kind == KIND_PERF && !measured[i])
      add(msg, cap, "%s: \"%s\" has no measured row for %s", file, HEADING, a->checks[i].name);
}

START_TEST(test_handouts_say_what_full_marks_take) {
  char names[16][64], msg[6000] = "";
  int n = list_assignments(names, 16);
  for (int i = 0; i < n; i++) {
    static assignment_conf a;
    load_conf(names[i], &a);
    char path[256];
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *text = read_text(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    check_full_marks(path, text, &a, msg, sizeof msg);
    free(text);
  }
  ck_assert_msg(!*msg, "what full marks take (tests/test_full_marks.c):%s", msg);
}
END_TEST

/* The checker on a fixture conf and table, a planted wrong number each. */
START_TEST(test_full_marks_checked) {
  static assignment_conf a;
  memset(&a, 0, sizeof a);
  snprintf(a.path, sizeof a.path, "x/grade.conf");
  a.n_checks = 2;
  snprintf(a.checks[0].name, CONF_NAME_MAX, "perf-big");
  a.checks[0].kind = KIND_PERF, a.checks[0].points = 15, a.checks[0].full_ratio = 1.10;
  snprintf(a.checks[1].name, CONF_NAME_MAX, "ptx-x");
  a.checks[1].kind = KIND_PTX, a.checks[1].points = 5;
  char msg[4000] = "";
  static const char GOOD[] = "# H\n\n## What full marks take\n\nText.\n\n| design | check | time | reference | points |\n"
                             "| --- | --- | ---: | ---: | ---: |\n| ref | `perf-big` | 0.0453 ms | 45.3 us | 15.00 of 15 |\n"
                             "| slow | `perf-big` | 0.6503 ms | 0.0453 ms | 1.15 of 15 |\n| slow | all | | | 1.15 of 15 |\n"
                             "| other | `perf-big` | not measured | 0.0453 ms | not measured |\n\n## Grading\n";
  check_full_marks("h.md", GOOD, &a, msg, sizeof msg);
  ck_assert_msg(!*msg, "%s", msg);
  /* 15 * 1.10 * 0.0453 / 0.6503 = 1.149...: 1.15, not 1.25 */
  char bad[sizeof GOOD + 16];
  snprintf(bad, sizeof bad, "%s", GOOD);
  memcpy(strstr(bad, "1.15 of 15 |\n| slow"), "1.25", 4);
  check_full_marks("h.md", bad, &a, msg, sizeof msg);
  ck_assert_msg(strstr(msg, "h.md:10: slow: perf-big earns 1.15 of 15 at 0.6503 ms against 0.0453 ms"), "%s", msg);
  msg[0] = 0;
  check_full_marks("h.md", "# H\n\n## Grading\n", &a, msg, sizeof msg);
  ck_assert_msg(strstr(msg, "no \"## What full marks take\" section"), "%s", msg);
  msg[0] = 0;
  check_full_marks("h.md", "## What full marks take\n\n| d | `ptx-x` | 1 ms | 1 ms | 5 of 5 |\n", &a, msg, sizeof msg);
  ck_assert_msg(strstr(msg, "ptx-x is not a perf check") && strstr(msg, "no measured row for perf-big"), "%s", msg);
}
END_TEST

void teaching_full_marks_tests(TCase *t) {
  tcase_add_test(t, test_full_marks_checked);
  tcase_add_test(t, test_handouts_say_what_full_marks_take);
}
