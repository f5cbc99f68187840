/* test_lecture06.c: lecture 06's examples (lectures/examples/app_*.cu) and
 * its note. Each example is built, rejects arguments and fails cleanly
 * without a GPU; the PTX of each kernel shows what the lecture says about it
 * (the scan versions order their output with a scan and barriers, no atomics;
 * the atomic versions do the opposite; the radix sort example holds CUB's
 * radix sort kernels); app_binning --cpu prints lists that agree with its
 * intervals; and the note cuts its listings from the examples, marks its
 * measured tables and ends with exercises. Run from the repo root after
 * `make test-builds`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "ptx.h"
#include "tests.h"

static const char *const EXAMPLES[] = {"app_compact", "app_radix_sort", "app_binning"};
#define N_EXAMPLES (sizeof EXAMPLES / sizeof *EXAMPLES)
static const char NOTE[] = "lectures/06-applications.md";

/* ---------------------------------------------------------------- the PTX of each kernel */

enum col { ATOM_GLOBAL, ATOM_SHARED, BARRIER, SHUFFLE_UP, N_COLS };
#define LINE_START "^[[:space:]]*"
static const char *const COL_PATTERN[N_COLS] = {
    [ATOM_GLOBAL] = LINE_START "(atom|red)\\.global\\.",
    [ATOM_SHARED] = LINE_START "(atom|red)\\.shared\\.",
    [BARRIER] = LINE_START "bar(rier)?\\.sync",
    [SHUFFLE_UP] = LINE_START "shfl\\.sync\\.up\\.",
};
static const char *const COL_NAME[N_COLS] = {"global atomics", "shared atomics", "barriers", "shuffles up"};

/* NONE: no line matches; SOME: at least one does (how many depends on the
 * compiler's unrolling, which the lecture does not promise). */
enum want { NONE, SOME };
static const struct {
  const char *example, *kernel;
  enum want want[N_COLS];
} KERNELS[] = {
    {"app_compact", "app_scan_counts", {NONE, NONE, SOME, SOME}},
    {"app_compact", "compact_count", {NONE, NONE, SOME, SOME}},
    {"app_compact", "compact_scatter", {NONE, NONE, SOME, SOME}},      /* order from the scan alone */
    {"app_compact", "compact_atomic", {SOME, NONE, NONE, NONE}},       /* order from the race */
    {"app_radix_sort", "app_scan_counts", {NONE, NONE, SOME, SOME}},
    {"app_radix_sort", "radix_histogram", {NONE, SOME, SOME, NONE}},   /* counts: order does not matter */
    {"app_radix_sort", "radix_scatter", {NONE, NONE, SOME, SOME}},     /* a stable rank needs no atomics */
    {"app_binning", "app_scan_counts", {NONE, NONE, SOME, SOME}},
    {"app_binning", "bin_count", {NONE, NONE, SOME, SOME}},
    {"app_binning", "bin_fill", {NONE, NONE, SOME, SOME}},             /* index order from the scan */
    {"app_binning", "bin_fill_atomic", {SOME, NONE, NONE, NONE}},
};
#define N_KERNELS (sizeof KERNELS / sizeof *KERNELS)

static char *ptx_path(const char *example) {
  static char path[256];
  snprintf(path, sizeof path, "build/lectures/%s.ptx", example);
  return path;
}

START_TEST(test_lecture06_kernel_ptx) {
  const int k = _i;
  for (int c = 0; c < N_COLS; c++) {
    char err[512];
    long n = ptx_count(ptx_path(KERNELS[k].example), KERNELS[k].kernel, COL_PATTERN[c], err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(KERNELS[k].want[c] == SOME ? n > 0 : n == 0, "%s.ptx, kernel %s: %ld lines of %s, want %s",
                  KERNELS[k].example, KERNELS[k].kernel, n, COL_NAME[c], KERNELS[k].want[c] == SOME ? "some" : "none");
  }
}
END_TEST

/* Every kernel of ours has a row above; the radix sort example holds CUB's. */
START_TEST(test_lecture06_kernels_all_listed) {
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    char *ptx = read_text(ptx_path(EXAMPLES[e]));
    ck_assert_msg(ptx != NULL, "%s is missing: run make test-builds", ptx_path(EXAMPLES[e]));
    int ours = 0, cub_radix = 0;
    for (char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
      char name[512];
      ck_assert(sscanf(p + 7, "%511[A-Za-z0-9_]", name) == 1);
      if (!strncmp(name, "_ZN3cub", 7)) {
        cub_radix += strstr(name, "DeviceRadixSort") != NULL;
        continue;
      }
      int listed = 0;
      for (size_t k = 0; k < N_KERNELS; k++)
        listed |= !strcmp(KERNELS[k].kernel, name) && !strcmp(KERNELS[k].example, EXAMPLES[e]);
      ck_assert_msg(listed, "%s: kernel %s has no row in test_lecture06.c's KERNELS", ptx_path(EXAMPLES[e]), name);
      ours++;
    }
    ck_assert_msg(ours >= 3, "%s: only %d kernels of its own", ptx_path(EXAMPLES[e]), ours);
    if (!strcmp(EXAMPLES[e], "app_radix_sort"))
      ck_assert_msg(cub_radix >= 2, "%s: %d CUB radix sort kernels; the example times cub::DeviceRadixSort",
                    ptx_path(EXAMPLES[e]), cub_radix);
    else
      ck_assert_msg(cub_radix == 0, "%s: CUB radix sort kernels in an example that should not use CUB",
                    ptx_path(EXAMPLES[e]));
    free(ptx);
  }
}
END_TEST

/* warp_ballot (the note's ballot, lane mask and popcount): its kernel ranks a
 * warp's flags with one ballot and popcounts, takes one atomic a warp, and
 * needs no barrier; the program rejects arguments and fails cleanly without a GPU. */
START_TEST(test_lecture06_warp_ballot) {
  static const struct {
    const char *pattern, *why;
    long min, max;
  } ROWS[] = {
      {LINE_START "vote\\.sync\\.ballot\\.", "one ballot puts the warp's flags in a word", 1, 1},
      {LINE_START "popc\\.", "a popcount for the rank and one for the warp's total", 2, 2},
      {LINE_START "(atom|red)\\.global\\.", "one atomic a warp", 1, 1},
      {LINE_START "bar(rier)?\\.sync", "no barrier: a warp needs none", 0, 0},
  };
  for (size_t r = 0; r < sizeof ROWS / sizeof *ROWS; r++) {
    char err[512];
    long n = ptx_count(ptx_path("warp_ballot"), "keep_warp_aggregated", ROWS[r].pattern, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(n >= ROWS[r].min && n <= ROWS[r].max, "warp_ballot.ptx, keep_warp_aggregated: %ld lines match %s; "
                  "lecture 06 says %s", n, ROWS[r].pattern, ROWS[r].why);
  }
  lecture_example_check_usage("warp_ballot");
  lecture_example_check_no_gpu("warp_ballot");
}
END_TEST

/* ---------------------------------------------------------------- the programs, without a GPU */

START_TEST(test_lecture06_rejects_arguments) { lecture_example_check_usage(EXAMPLES[_i]); }
END_TEST

START_TEST(test_lecture06_without_gpu) { lecture_example_check_no_gpu(EXAMPLES[_i]); }
END_TEST

/* ---------------------------------------------------------------- app_binning --cpu
 *
 * The program prints its intervals and then each bucket's list. The test
 * derives the lists again from the printed intervals and bucket ranges: every
 * interval that touches the bucket, none that does not, in increasing index,
 * with counts and starts that add up. */
enum { MAX_INTERVALS = 64 };

START_TEST(test_lecture06_binning_cpu_lists) {
  char *out, *err;
  int rc = lecture_example_run("CUDA_VISIBLE_DEVICES=-1", "app_binning", "--cpu", &out, &err);
  ck_assert_msg(rc == 0 && !*err, "app_binning --cpu exited %d (it needs no GPU); stderr:\n%s", rc, err);
  unsigned lo[MAX_INTERVALS], hi[MAX_INTERVALS], n = 0, buckets = 0, next_start = 0, entries = 0;
  int section = 0; /* 1: intervals, 2: buckets */
  char *save = NULL;
  for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#') continue;
    if (!strcmp(line, "interval,lo,hi")) { section = 1; continue; }
    if (!strcmp(line, "bucket,first,last,count,start,intervals")) { section = 2; continue; }
    ck_assert_msg(section != 0, "app_binning --cpu: a line before any header: %s", line);
    if (section == 1) {
      unsigned i;
      ck_assert_msg(sscanf(line, "%u,%u,%u", &i, &lo[n], &hi[n]) == 3 && i == n && n < MAX_INTERVALS && lo[n] <= hi[n],
                    "app_binning --cpu: bad interval row: %s", line);
      n++;
      continue;
    }
    unsigned b, first, last, count, start;
    int used = 0;
    ck_assert_msg(sscanf(line, "%u,%u,%u,%u,%u,%n", &b, &first, &last, &count, &start, &used) == 5 && b == buckets,
                  "app_binning --cpu: bad bucket row: %s", line);
    ck_assert_msg(start == next_start, "bucket %u starts at %u, but the buckets before it hold %u", b, start, next_start);
    const char *list = line + used;
    unsigned listed = 0;
    for (unsigned i = 0; i < n; i++) {
      if (!(lo[i] <= last && hi[i] >= first)) continue;
      unsigned got;
      int len = 0;
      ck_assert_msg(sscanf(list, "%u%n", &got, &len) == 1 && got == i,
                    "bucket %u [%u, %u]: interval %u [%u, %u] touches it and comes next, the list says '%s'", b, first,
                    last, i, lo[i], hi[i], list);
      list += len;
      listed++;
    }
    ck_assert_msg(!*list, "bucket %u: '%s' is more than the intervals that touch it", b, list);
    ck_assert_msg(count == listed, "bucket %u: count %u, but %u intervals touch it", b, count, listed);
    next_start += count;
    entries += listed;
    buckets++;
  }
  ck_assert_msg(n >= 4 && buckets >= 2 && entries > n, "app_binning --cpu: %u intervals, %u buckets, %u entries", n,
                buckets, entries);
  free(out);
  free(err);
}
END_TEST

/* ---------------------------------------------------------------- the note */

START_TEST(test_lecture06_note) {
  char *text = read_text(NOTE);
  ck_assert_msg(text != NULL, "%s is missing", NOTE);
  /* listings cut from each example (test_quotes.c checks that their lines are in the file) */
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    char cut[128];
    snprintf(cut, sizeof cut, "(`lectures/examples/%s.cu`):", EXAMPLES[e]);
    ck_assert_msg(strstr(text, cut), "%s cuts no listing from lectures/examples/%s.cu", NOTE, EXAMPLES[e]);
  }
  /* the timed tables await a GPU run, or quote one */
  static const char *const MEASURED[] = {"app-compact", "app-radix-sort"};
  for (size_t m = 0; m < sizeof MEASURED / sizeof *MEASURED; m++) {
    char marker[128], quote[128];
    snprintf(marker, sizeof marker, "lectures/data/%s-", MEASURED[m]);
    snprintf(quote, sizeof quote, "<!-- quoted from: lectures/data/%s-", MEASURED[m]);
    ck_assert_msg(strstr(text, marker) || strstr(text, quote), "%s: no measure marker or quote of %s's data", NOTE,
                  MEASURED[m]);
  }
  /* the tiny problem's lists are quoted from the program (test_quotes.c runs it and compares) */
  ck_assert_msg(strstr(text, "<!-- quoted from: build/lectures/app_binning --cpu -->"),
                "%s does not quote app_binning --cpu", NOTE);
  const char *ex = strstr(text, "\n## ");
  const char *last = NULL;
  for (; ex; ex = strstr(ex + 1, "\n## ")) last = ex;
  ck_assert_msg(strstr(text, "Exercises"), "%s has no exercises", NOTE);
  ck_assert_msg(last && (strstr(last, "Exercises") || strstr(last, "Further reading")),
                "%s: the exercises should come at the end", NOTE);
  free(text);
  char *index = read_text("lectures/README.md");
  ck_assert(index != NULL);
  ck_assert_msg(strstr(index, "](06-applications.md)"), "lectures/README.md does not link lecture 06");
  free(index);
}
END_TEST

/* The GPU tier's verdict on each example (tests/lecture06-judge.sh):
 * the H100's measured CSV passes it; the same CSV with one version unverified
 * (ok 0), or cut short, fails it. */
START_TEST(test_lecture06_gpu_judge) {
  const char *ex = EXAMPLES[_i];
  char name[64], csv[128], cmd[1024];
  snprintf(name, sizeof name, "%s", ex);
  for (char *p = name; *p; p++)
    if (*p == '_') *p = '-';
  snprintf(csv, sizeof csv, "lectures/data/%s-h100.csv", name);
  char *dir = make_temp_dir("l06judge");
  snprintf(cmd, sizeof cmd, "bash tests/lecture06-judge.sh %s %s >/dev/null", ex, csv);
  ck_assert_msg(run_shell(cmd) == 0, "%s: the measured %s fails the tier's judge", ex, csv);
  /* ok is column 4 (radix sort) or 5: break the first version row's */
  snprintf(cmd, sizeof cmd,
           "awk -F, -v OFS=, -v c=%d '!done && $c == 1 && $1 ~ /_/ {$c = 0; done = 1} {print}' %s > %s/bad.csv && "
           "bash tests/lecture06-judge.sh %s %s/bad.csv >/dev/null",
           strcmp(ex, "app_radix_sort") ? 5 : 4, csv, dir, ex, dir);
  ck_assert_msg(run_shell(cmd) == 1, "%s: an unverified row passes the tier's judge", ex);
  snprintf(cmd, sizeof cmd, "head -n 4 %s > %s/short.csv && bash tests/lecture06-judge.sh %s %s/short.csv >/dev/null", csv,
           dir, ex, dir);
  ck_assert_msg(run_shell(cmd) == 1, "%s: a table cut short passes the tier's judge", ex);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *lecture06_suite(void) {
  Suite *s = suite_create("lecture06");
  TCase *t = tcase_create("examples");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_lecture06_kernel_ptx, 0, (int)N_KERNELS);
  tcase_add_test(t, test_lecture06_kernels_all_listed);
  tcase_add_loop_test(t, test_lecture06_rejects_arguments, 0, (int)N_EXAMPLES);
  tcase_add_loop_test(t, test_lecture06_without_gpu, 0, (int)N_EXAMPLES);
  tcase_add_test(t, test_lecture06_binning_cpu_lists);
  tcase_add_test(t, test_lecture06_warp_ballot);
  tcase_add_loop_test(t, test_lecture06_gpu_judge, 0, (int)N_EXAMPLES);
  suite_add_tcase(s, t);
  TCase *n = tcase_create("note");
  tcase_add_test(n, test_lecture06_note);
  suite_add_tcase(s, n);
  return s;
}
