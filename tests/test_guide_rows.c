/* test_guide_rows.c: the teaching suite's sample runs (test_teaching.c): the
 * student guide's sample rows name real checks, points and kernels. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "teaching.h"
#include "tests.h"

/* ---------------------------------------------------------------- the student guide's sample runs
 *
 * Every grader row a guide shows ("[ i/N] name kind VERDICT x/y reason") is a
 * check of a real assignment: the i-th of its N checks, with that name, kind
 * and points. A block without an "NN-name: Title (100 points)" line must
 * match one assignment. A ptx row names the kernel its check counts
 * ("scan_shfl: ..."), and a kernel a sanitizer report names ("at
 * scan4_syncwarp+0x5f0") is one the assignment launches. The two checks are
 * teaching.h's (guide_row_fits, guide_kernel_launched); their test on the old
 * guide's rows is the assignment's own (assignments/NN/tests/). */
static int ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Whether some CUDA source of the assignment launches the kernel: its name,
 * as a whole word, followed by "<<<" or standing in a table of kernels (",",
 * "}"). A kernel that is only defined (a PTX probe) is never launched, so a
 * sanitizer cannot report a hazard in it. */
int guide_kernel_launched(const char *assignment, const char *kernel) {
  char pattern[512];
  snprintf(pattern, sizeof pattern, "assignments/%s/runner/*.cu", assignment);
  glob_t g;
  glob(pattern, 0, NULL, &g);
  snprintf(pattern, sizeof pattern, "starter/%s/*.cu", assignment);
  glob(pattern, GLOB_APPEND, NULL, &g);
  snprintf(pattern, sizeof pattern, "solutions/%s/*.cu", assignment);
  glob(pattern, GLOB_APPEND, NULL, &g);
  int launched = 0;
  size_t kl = strlen(kernel);
  for (size_t i = 0; i < g.gl_pathc && !launched; i++) {
    char *src = read_text(g.gl_pathv[i]);
    for (const char *p = src ? strstr(src, kernel) : NULL; p && !launched; p = strstr(p + 1, kernel)) {
      if ((p > src && ident_char(p[-1])) || ident_char(p[kl])) continue;
      const char *after = p + kl + strspn(p + kl, " ");
      launched = !strncmp(after, "<<<", 3) || *after == ',' || *after == '}';
    }
    free(src);
  }
  globfree(&g);
  return launched;
}

/* Whether a row fits check i of assignment a; why says how it does not. */
int guide_row_fits(const char *assignment, const char *row, char *why, size_t cap) {
  static assignment_conf a;
  load_conf(assignment, &a);
  int i, n;
  char name[64], kind[32], verdict[32];
  double got, points;
  if (sscanf(row, " [%d/%d] %63s %31s %31s %lf/%lf", &i, &n, name, kind, verdict, &got, &points) != 7)
    return snprintf(why, cap, "cannot read the row"), 0;
  if (n != a.n_checks) return snprintf(why, cap, "%s has %d checks, the row says %d", assignment, a.n_checks, n), 0;
  const check_conf *c = &a.checks[i - 1];
  if (i < 1 || i > n || strcmp(c->name, name)) return snprintf(why, cap, "check %d of %s is not '%s'", i, assignment, name), 0;
  if (strcmp(conf_kind_name(c->kind), kind) || points != c->points || got > points)
    return snprintf(why, cap, "%s is a %s check worth %g in grade.conf", name, conf_kind_name(c->kind), c->points), 0;
  /* kernels named in the reason */
  const char *reason = strstr(row, "/");
  reason = reason ? strchr(reason, ' ') : NULL;
  if (reason && c->kind == KIND_PTX && strstr(reason, " matching PTX lines") && !strstr(reason, c->kernel))
    return snprintf(why, cap, "%s counts kernel %s", name, c->kernel), 0;
  for (const char *at = reason ? strstr(reason, " at ") : NULL; at; at = strstr(at + 1, " at ")) {
    char kernel[128];
    if (sscanf(at, " at %127[A-Za-z0-9_]+0x", kernel) == 1 && strstr(at, "+0x") && !guide_kernel_launched(assignment, kernel))
      return snprintf(why, cap, "%s launches no kernel '%s'", assignment, kernel), 0;
  }
  return 1;
}

static void check_guide_rows(const char *path) {
  char *text = read_text(path);
  ck_assert_msg(text != NULL, "%s is missing", path);
  char names[16][64];
  int n_names = list_assignments(names, 16), rows = 0;
  for (char *fence = strstr(text, "\n```"); fence; fence = strstr(fence + 1, "\n```")) {
    char *body = strchr(fence + 1, '\n');
    char *close = body ? strstr(body, "\n```") : NULL;
    if (!close) break;
    char *block = strndup(body + 1, (size_t)(close - body)), *save = NULL;
    const char *current = NULL;
    for (char *line = strtok_r(block, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      for (int i = 0; i < n_names; i++)
        if (!strncmp(line, names[i], strlen(names[i])) && line[strlen(names[i])] == ':') current = names[i];
      const char *lead = line + strspn(line, " ");
      int a, b;
      if (sscanf(lead, "[%d/%d]", &a, &b) != 2) continue;
      char why[512] = "";
      int fits = 0;
      if (current) {
        fits = guide_row_fits(current, line, why, sizeof why);
      } else {
        for (int i = 0; i < n_names && !fits; i++) fits = guide_row_fits(names[i], line, why, sizeof why);
      }
      ck_assert_msg(fits, "%s: a sample row is no check of %s: %s\n  %s", path, current ? current : "any assignment",
                    why, line);
      rows++;
    }
    free(block);
    fence = close;
  }
  ck_assert_msg(rows >= 4, "%s: only %d sample rows found", path, rows);
  free(text);
}

START_TEST(test_student_guide_sample_rows) { check_guide_rows("docs/student-guide.md"); }
END_TEST

void teaching_guide_rows_tests(TCase *t) {
  tcase_add_test(t, test_student_guide_sample_rows);
}
