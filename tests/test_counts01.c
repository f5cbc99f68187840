/* test_counts01.c: the teaching suite's assignment 01 counts (test_teaching.c):
 * two counts that the texts of 01 state about code a student is told to write,
 * computed from the PTX of that code (issue 40 items 1 and 4).
 *   - Task 1's "one-word change" of the starter (`int *data` made
 *     `volatile int *data`) passes the ptx-scratch check of grade.conf.
 *   - The variant of the reference's `warp_scan_syncwarp` that drops the last
 *     store and the barrier after it has the barrier and shared-access counts
 *     that solutions/01-warp-scan/ANSWERS.md states.
 * Each variant is compiled as `make ptx A=01` compiles the runner (nvcc -ptx
 * for PTX_ARCH, the student's file included by runner.cu), and counted with
 * the grader's own ptx_count. Run from the repository root; needs nvcc ($NVCC). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "teaching.h"
#include "tests.h"

static const char *nvcc(void) {
  const char *n = getenv("NVCC");
  return n && *n ? n : "/usr/local/cuda/bin/nvcc";
}

/* Writes FROM with its one occurrence of OLD replaced by NEW to DIR/warp_scan.cu,
 * and compiles the runner with it into DIR/runner.ptx. */
static void build_variant(const char *dir, const char *from, const char *old, const char *new) {
  char *src = read_text(from);
  ck_assert_msg(src, "cannot read %s", from);
  char *at = strstr(src, old);
  ck_assert_msg(at, "%s no longer has the line the variant changes: %s", from, old);
  ck_assert_msg(!strstr(at + 1, old), "%s has the line the variant changes twice: %s", from, old);
  char path[512];
  snprintf(path, sizeof path, "%s/warp_scan.cu", dir);
  FILE *f = fopen(path, "w");
  ck_assert_msg(f, "cannot write %s", path);
  fprintf(f, "%.*s%s%s", (int)(at - src), src, new, at + strlen(old));
  ck_assert_int_eq(fclose(f), 0);
  free(src);
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "'%s' -ptx -arch=compute_75 -std=c++17 -Igrader/protocol -Igrader/runner -Iassignments/01-warp-scan "
           "-I'%s' assignments/01-warp-scan/runner.cu -o '%s/runner.ptx' > '%s/nvcc.log' 2>&1 || cat '%s/nvcc.log'",
           nvcc(), dir, dir, dir, dir);
  ck_assert_msg(run_shell(cmd) == 0, "%s: the variant does not compile (output above)", from);
  snprintf(path, sizeof path, "%s/runner.ptx", dir);
  FILE *p = fopen(path, "r");
  ck_assert_msg(p, "the variant of %s does not compile (output above)", from);
  fclose(p);
}

static long count(const char *dir, const char *kernel, const char *pattern) {
  char path[512], err[256];
  snprintf(path, sizeof path, "%s/runner.ptx", dir);
  long n = ptx_count(path, kernel, pattern, err, sizeof err);
  ck_assert_msg(n >= 0, "%s", err);
  return n;
}

static const check_conf *find_check(const assignment_conf *a, const char *name) {
  for (int i = 0; i < a->n_checks; i++)
    if (!strcmp(a->checks[i].name, name)) return &a->checks[i];
  ck_abort_msg("%s has no check [%s]", a->path, name);
  return NULL;
}

static int in_range(const check_conf *c, long n) { return (c->min < 0 || n >= c->min) && (c->max < 0 || n <= c->max); }

/* ---------------------------------------------------------------- task 1 as the text states it
 *
 * The starter's TODO and the handout's task 1 call the fix a one-word change:
 * `volatile` added to the declaration of `data`. Made to the starter as given,
 * it must pass ptx-scratch (the starter itself must not). */
static const char DATA_PLAIN[] = "  int *data = scratch + 32 + lane;";
static const char DATA_VOLATILE[] = "  volatile int *data = scratch + 32 + lane;";

START_TEST(test_task1_one_word_change_passes) {
  assignment_conf a;
  load_conf("01-warp-scan", &a);
  const check_conf *c = find_check(&a, "ptx-scratch");
  char *dir = make_temp_dir("counts01");
  build_variant(dir, "starter/01-warp-scan/warp_scan.cu", DATA_PLAIN, DATA_PLAIN);
  long starter = count(dir, c->kernel, c->pattern);
  ck_assert_msg(!in_range(c, starter), "the starter as given passes ptx-scratch (%ld matches of %s)", starter,
                c->pattern);
  build_variant(dir, "starter/01-warp-scan/warp_scan.cu", DATA_PLAIN, DATA_VOLATILE);
  long fixed = count(dir, c->kernel, c->pattern);
  ck_assert_msg(in_range(c, fixed),
                "task 1's one-word change (volatile on `data`) gives %ld matches of %s in %s; ptx-scratch allows "
                "[%ld, %ld]: a student who follows the text loses %g points",
                fixed, c->pattern, c->kernel, c->min, c->max, c->points);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* ---------------------------------------------------------------- answer 4's variant
 *
 * Answer 4 says what dropping the last store and the barrier after it leaves.
 * The variant: the reference's loop with a `break` before the store of step 16. */
static const char LOOP_STORE[] = "    data[0] = sum;\n    __syncwarp(); // all writes of this step";
static const char LOOP_BREAK[] = "    if (k == 16) break; // variant: no store of the step-16 sum, no barrier after it\n"
                                 "    data[0] = sum;\n    __syncwarp(); // all writes of this step";

START_TEST(test_answer4_dropped_store_counts) {
  char *dir = make_temp_dir("counts01");
  build_variant(dir, "solutions/01-warp-scan/warp_scan.cu", LOOP_STORE, LOOP_STORE);
  long bars_ref = count(dir, "scan_syncwarp", "bar\\.warp\\.sync");
  long shared_ref = count(dir, "scan_syncwarp", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared");
  build_variant(dir, "solutions/01-warp-scan/warp_scan.cu", LOOP_STORE, LOOP_BREAK);
  long bars = count(dir, "scan_syncwarp", "bar\\.warp\\.sync");
  long shared = count(dir, "scan_syncwarp", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared");
  ck_assert_msg(bars == bars_ref - 1 && shared == shared_ref - 1,
                "the variant should drop one barrier and one store: %ld/%ld barriers, %ld/%ld shared accesses", bars,
                bars_ref, shared, shared_ref);
  char *answers = read_text("solutions/01-warp-scan/ANSWERS.md");
  ck_assert(answers);
  char *flat = flatten(answers, strlen(answers)), want[128];
  snprintf(want, sizeof want, "%ld barriers and %ld shared accesses would be correct", bars, shared);
  ck_assert_msg(strstr(flat, want), "ANSWERS 01 (question 4) must say \"%s\", what the variant compiles to", want);
  snprintf(want, sizeof want, "%ld `bar.warp.sync -1`", bars_ref);
  ck_assert_msg(strstr(flat, want), "ANSWERS 01 (question 4) must say \"%s\", what the reference compiles to", want);
  free(flat);
  free(answers);
  remove_dir(dir);
  free(dir);
}
END_TEST

void teaching_counts01_tests(TCase *t) {
  tcase_add_test(t, test_task1_one_word_change_passes);
  tcase_add_test(t, test_answer4_dropped_store_counts);
}
