/* test_rubrics.c: the teaching suite's written questions (test_teaching.c):
 * the points of a handout's questions are the points of the rubrics in its
 * ANSWERS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teaching.h"
#include "tests.h"

/* ---------------------------------------------------------------- written questions and rubrics
 *
 * A handout's "## Questions" section states the total ("**N points** in all")
 * and each question's points: a line "K. **Title** (P points). ...". Its
 * ANSWERS.md has, under "## K. ...", a rubric "**Rubric (P points).**" with
 * lines "- full (P): ...", at least one "- partial (x): ..." with 0 < x < P,
 * and "- none (0): ...". */
enum { MAX_QUESTIONS = 32 };

typedef struct question {
  int number;
  double points;
} question;

/* Reads the questions of a handout; returns their count, or -1 with why set. */
static int handout_questions(const char *text, question *q, double *total, char *why, size_t cap) {
  const char *sec = strstr(text, "\n## Questions");
  if (!sec) return snprintf(why, cap, "no '## Questions' section"), -1;
  const char *end = strstr(sec + 1, "\n## ");
  if (!end) end = sec + strlen(sec);
  char *body = strndup(sec, (size_t)(end - sec));
  *total = -1;
  char *flat = flatten(body, strlen(body));
  for (char *p = strstr(flat, " points** in all"); p; p = NULL) {
    char *num = p;
    while (num > flat && num[-1] != '*') num--;
    *total = atof(num);
  }
  free(flat);
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(body, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    int number, used = 0;
    if (sscanf(line, "%d. **%n", &number, &used) != 1 || !used) continue;
    char *close = strstr(line + used, "** (");
    double points;
    if (!close || sscanf(close, "** (%lf point", &points) != 1) {
      snprintf(why, cap, "question %d states no points: \"%.60s\"", number, line);
      free(body);
      return -1;
    }
    if (n == MAX_QUESTIONS) break;
    q[n++] = (question){number, points};
  }
  free(body);
  if (*total < 0) return snprintf(why, cap, "the Questions section states no total (\"**N points** in all\")"), -1;
  return n;
}

/* Finds the rubric of question `number` in an ANSWERS.md; returns its points,
 * or -1 with why set when it is missing or malformed. */
static double answers_rubric(const char *answers, int number, char *why, size_t cap) {
  char head[32];
  snprintf(head, sizeof head, "\n## %d. ", number);
  const char *sec = strstr(answers, head);
  if (!sec) return snprintf(why, cap, "no section '## %d.'", number), -1;
  const char *end = strstr(sec + 1, "\n## ");
  if (!end) end = sec + strlen(sec);
  const char *r = strstr(sec, "**Rubric (");
  double points;
  if (!r || r > end || sscanf(r, "**Rubric (%lf point", &points) != 1)
    return snprintf(why, cap, "question %d has no \"**Rubric (P points).**\"", number), -1;
  int full = 0, partial = 0, none = 0;
  for (const char *p = strstr(r, "\n- "); p && p < end; p = strstr(p + 1, "\n- ")) {
    double x;
    if (sscanf(p, "\n- full (%lf)", &x) == 1) {
      if (x != points) return snprintf(why, cap, "question %d: full credit %g of %g", number, x, points), -1;
      full++;
    } else if (sscanf(p, "\n- partial (%lf)", &x) == 1) {
      if (!(x > 0 && x < points))
        return snprintf(why, cap, "question %d: partial credit %g outside (0, %g)", number, x, points), -1;
      partial++;
    } else if (sscanf(p, "\n- none (%lf)", &x) == 1) {
      if (x != 0) return snprintf(why, cap, "question %d: no credit is %g, not 0", number, x), -1;
      none++;
    }
  }
  if (full != 1 || partial < 1 || none != 1)
    return snprintf(why, cap, "question %d: the rubric needs one full, some partial and one none line", number), -1;
  return points;
}

/* The rubric sections of an ANSWERS.md: how many, and their points in all. */
static int answers_rubric_count(const char *answers, double *sum) {
  int n = 0;
  *sum = 0;
  for (const char *r = strstr(answers, "**Rubric ("); r; r = strstr(r + 1, "**Rubric (")) {
    double p;
    if (sscanf(r, "**Rubric (%lf point", &p) == 1) *sum += p, n++;
  }
  return n;
}

/* Checks a handout's questions against its answers; returns 0, or -1 with why set. */
static int questions_match_rubrics(const char *handout, const char *answers, char *why, size_t cap) {
  question q[MAX_QUESTIONS];
  double total, sum = 0, rubric_sum;
  int n = handout_questions(handout, q, &total, why, cap);
  if (n < 0) return -1;
  if (n == 0) return snprintf(why, cap, "no numbered questions"), -1;
  for (int i = 0; i < n; i++) {
    double r = answers_rubric(answers, q[i].number, why, cap);
    if (r < 0) return -1;
    if (r != q[i].points)
      return snprintf(why, cap, "question %d is worth %g in the handout, %g in the rubric", q[i].number, q[i].points,
                      r),
             -1;
    sum += q[i].points;
  }
  if (sum != total) return snprintf(why, cap, "the questions add up to %g, the handout says %g", sum, total), -1;
  int rubrics = answers_rubric_count(answers, &rubric_sum);
  if (rubrics != n || rubric_sum != total)
    return snprintf(why, cap, "ANSWERS.md has %d rubrics worth %g; the handout has %d questions worth %g", rubrics,
                    rubric_sum, n, total),
           -1;
  return 0;
}

START_TEST(test_written_questions_have_rubrics) {
  char names[16][64];
  int n = list_assignments(names, 16), checked = 0;
  for (int i = 0; i < n; i++) {
    char path[512], why[512];
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *handout = read_text(path);
    snprintf(path, sizeof path, "solutions/%s/ANSWERS.md", names[i]);
    char *answers = read_text(path);
    if (handout && answers && strstr(handout, "\n## Questions")) {
      ck_assert_msg(questions_match_rubrics(handout, answers, why, sizeof why) == 0, "%s: %s", names[i], why);
      checked++;
    }
    free(handout);
    free(answers);
  }
  ck_assert_msg(checked >= 3, "only %d handouts with questions and answers found", checked);
}
END_TEST

START_TEST(test_rubric_fixtures) {
  static const char HANDOUT[] = "x\n## Questions\n\nGraded by hand: **7 points** in all.\n\n"
                                "1. **One** (3 points). Why?\n2. **Two** (4 points). How?\n\n## Grading\n";
  static const char GOOD[] = "# A\n\n## 1. One\n\ntext\n\n**Rubric (3 points).**\n- full (3): all\n- partial (1): some\n"
                             "- none (0): nothing\n\n## 2. Two\n\n**Rubric (4 points).**\n- full (4): all\n"
                             "- partial (2): half\n- partial (1): a bit\n- none (0): nothing\n";
  char why[512];
  ck_assert_msg(questions_match_rubrics(HANDOUT, GOOD, why, sizeof why) == 0, "%s", why);
  static const char WRONG_POINTS[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- partial (1): b\n- none (0): c\n"
                                     "## 2. Two\n**Rubric (5 points).**\n- full (5): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, WRONG_POINTS, why, sizeof why), -1);
  static const char MISSING[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, MISSING, why, sizeof why), -1);
  ck_assert_msg(strstr(why, "## 2.") != NULL, "%s", why);
  static const char NO_PARTIAL[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- none (0): c\n"
                                   "## 2. Two\n**Rubric (4 points).**\n- full (4): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, NO_PARTIAL, why, sizeof why), -1);
  static const char BAD_TOTAL[] = "x\n## Questions\n\n**9 points** in all.\n\n1. **One** (3 points). a\n"
                                  "2. **Two** (4 points). b\n";
  ck_assert_int_eq(questions_match_rubrics(BAD_TOTAL, GOOD, why, sizeof why), -1);
}
END_TEST

void teaching_rubrics_tests(TCase *t) {
  tcase_add_test(t, test_written_questions_have_rubrics);
  tcase_add_test(t, test_rubric_fixtures);
}
